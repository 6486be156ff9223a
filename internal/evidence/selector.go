package evidence

import (
	"fmt"
	"github.com/ctxpack/ctxpack/internal/project"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits of the selector grammar.
const (
	maxPathBytes = 4096
	maxTagChars  = 64
	maxDigits    = 9 // so a number is at most 999999999
)

// Unit is what a selector's range counts.
type Unit int8

// The units a selector's range can count.
const (
	Whole Unit = iota // the whole file
	Lines             // 1-based inclusive lines
	Bytes             // 1-based inclusive bytes
)

// Selector is a parsed selector; its zero value is invalid.
//
// A selector names a part of a project file, written path[::range][#tags]:
//
//	core/flow.sh                 the whole file
//	core/flow.sh::100,200        lines 100 to 200
//	core/flow.sh::100            line 100 to the end of the file
//	core/flow.sh::100c,500c      bytes 100 to 500
//	core/flow.sh::100c           byte 100 to the end of the file
//	core/flow.sh#flow,manager    the whole file, tagged flow and manager
//	core/flow.sh::100,200#bug    lines 100 to 200, tagged bug
//
// The grammar is closed; ParseSelector accepts exactly this and nothing
// else:
//
//	selector = path [ "::" range ] [ "#" tags ]
//	range    = N "," N | N | N "c" "," N "c" | N "c"
//	N        = a decimal number 1..999999999 without leading zeros
//	tags     = tag *( "," tag )
//	tag      = 1..64 characters of A-Z a-z 0-9 _ - .
//	path     = 1..4096 bytes, valid UTF-8, no control characters
//	           (< 0x20, 0x7f), no "#", no "\", and no "::"
//
// The path ends at the first "::" or the first "#", whichever comes first;
// the range ends at the "#" or at the end. There are no spaces in a range
// or in tags, and nothing is trimmed: a selector that starts or ends with
// whitespace is an error (a path may hold inner spaces).
//
// Lines and bytes are 1-based and inclusive, the first at most the last;
// a range counts lines or bytes, never both ("100,500c" is an error).
//
// The path is relative to the project root and is cleaned with path.Clean
// ("./a//b/../c" is "a/c"). An absolute path, a path that cleans to "." (the
// root itself) and one that cleans to ".." or to "../..." (outside the
// root) are errors, and so is a path that cleans to one that starts or ends
// with whitespace, or that ends with ":" before a range (it would run into
// the "::"). Tags are sorted bytewise and de-duplicated.
//
// String prints the canonical form, which parses back to the same Selector.
type Selector struct {
	Path  string   // clean slash path relative to the project root
	Unit  Unit     // what Start and End count
	Start int      // first line or byte, 1-based; 0 when Whole
	End   int      // last line or byte, inclusive; 0 means to the end of the file (and when Whole)
	Tags  []string // sorted, unique; nil when none
}

// SelectorError is a malformed selector: the input, the byte offset where
// the problem is, and what is wrong (with the fix when there is one).
type SelectorError struct {
	Selector string // the input as given
	Offset   int    // 0-based byte offset into Selector, at most len(Selector)
	Msg      string // what is wrong, lower case, one line
}

// Error returns, for example,
// `evidence: selector "core/flow.sh::0,5": at byte 14: line numbers start at 1`.
func (e *SelectorError) Error() string {
	return fmt.Sprintf("evidence: selector %q: at byte %d: %s", e.Selector, e.Offset, e.Msg)
}

// ParseSelector parses s by the grammar documented on Selector. Any
// malformed input gives a *SelectorError.
func ParseSelector(s string) (Selector, error) {
	sel, err := parseSelector(s)
	if err != nil {
		return Selector{}, err
	}
	return sel, nil
}

// selectorParser holds the input so errors can quote it.
type selectorParser struct{ s string }

func (p selectorParser) errorf(off int, format string, args ...any) *SelectorError {
	return &SelectorError{Selector: p.s, Offset: off, Msg: fmt.Sprintf(format, args...)}
}

// describe names the character at s[i] for an error message.
func (p selectorParser) describe(i int) string {
	r, size := utf8.DecodeRuneInString(p.s[i:])
	switch {
	case r == utf8.RuneError && size <= 1:
		return fmt.Sprintf("byte 0x%02x", p.s[i])
	case r == ' ':
		return "a space"
	}
	return strconv.QuoteRune(r)
}

func parseSelector(s string) (Selector, *SelectorError) {
	p := selectorParser{s}
	if s == "" {
		return Selector{}, p.errorf(0, "empty selector; want path[::range][#tags]")
	}
	if r, _ := utf8.DecodeRuneInString(s); unicode.IsSpace(r) {
		return Selector{}, p.errorf(0, "starts with %s; remove it", spaceName(r))
	}
	if r, size := utf8.DecodeLastRuneInString(s); unicode.IsSpace(r) {
		return Selector{}, p.errorf(len(s)-size, "ends with %s; remove it", spaceName(r))
	}

	// The path ends at the first "::" or "#"; the range at the "#".
	pathEnd, rangeAt, rangeEnd := len(s), -1, len(s)
	hash := strings.IndexByte(s, '#')
	colons := strings.Index(s, "::")
	switch {
	case colons >= 0 && (hash < 0 || colons < hash):
		pathEnd, rangeAt = colons, colons+2
		if hash >= 0 {
			rangeEnd = hash
		}
	case hash >= 0:
		pathEnd = hash
	}

	var sel Selector
	var err *SelectorError
	if sel.Path, err = p.path(pathEnd, rangeAt >= 0); err != nil {
		return Selector{}, err
	}
	if rangeAt >= 0 {
		if sel.Unit, sel.Start, sel.End, err = p.rangeAt(rangeAt, rangeEnd); err != nil {
			return Selector{}, err
		}
	}
	if hash >= 0 {
		if sel.Tags, err = p.tags(hash + 1); err != nil {
			return Selector{}, err
		}
	}
	return sel, nil
}

func spaceName(r rune) string {
	if r == ' ' {
		return "a space"
	}
	return "whitespace " + strconv.QuoteRune(r)
}

// path checks and cleans s[:end]; ranged says a "::" follows it.
func (p selectorParser) path(end int, ranged bool) (string, *SelectorError) {
	raw := p.s[:end]
	if raw == "" {
		return "", p.errorf(0, "empty path; a selector starts with the file's path")
	}
	if raw[0] == '/' {
		return "", p.errorf(0, "absolute path; write the path relative to the project root")
	}
	if len(raw) > maxPathBytes {
		return "", p.errorf(maxPathBytes, "path is %d bytes; at most %d", len(raw), maxPathBytes)
	}
	for i := 0; i < len(raw); {
		r, size := utf8.DecodeRuneInString(raw[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return "", p.errorf(i, "invalid UTF-8 (byte 0x%02x) in the path", raw[i])
		case r < 0x20 || r == 0x7f:
			return "", p.errorf(i, "control character %s in the path", strconv.QuoteRune(r))
		case r == '\\':
			return "", p.errorf(i, `backslash in the path; separate directories with "/"`)
		}
		i += size
	}
	clean := path.Clean(raw)
	switch {
	case clean == ".":
		return "", p.errorf(0, "path %q names the project root, not a file", raw)
	case clean == ".." || strings.HasPrefix(clean, "../"):
		return "", p.errorf(0, "path %q escapes the project root", raw)
	}
	// Cleaning can expose whitespace or a ":" at an end, which the
	// canonical form could not carry: "./ a", "a /.", "a:/::1".
	if r, _ := utf8.DecodeRuneInString(clean); unicode.IsSpace(r) {
		return "", p.errorf(0, "path %q cleans to %q, which starts with %s", raw, clean, spaceName(r))
	}
	if r, _ := utf8.DecodeLastRuneInString(clean); unicode.IsSpace(r) {
		return "", p.errorf(end, "path %q cleans to %q, which ends with %s", raw, clean, spaceName(r))
	}
	if ranged && strings.HasSuffix(clean, ":") {
		return "", p.errorf(end, `path %q cleans to %q, whose ":" runs into the "::"`, raw, clean)
	}
	return clean, nil
}

// rangeAt parses the range s[i:end], which follows a "::".
func (p selectorParser) rangeAt(i, end int) (u Unit, start, last int, err *SelectorError) {
	if i == end {
		return 0, 0, 0, p.errorf(i, `empty range after "::"; want N, N,N, Nc or Nc,Nc`)
	}
	start, bytes, i, err := p.number(i, end)
	if err != nil {
		return 0, 0, 0, err
	}
	u = Lines
	if bytes {
		u = Bytes
	}
	if i < end && p.s[i] == ',' {
		at := i + 1
		var bytes2 bool
		last, bytes2, i, err = p.number(at, end)
		if err != nil {
			return 0, 0, 0, err
		}
		switch {
		case bytes != bytes2:
			return 0, 0, 0, p.errorf(at, "mixed units; write %dc,%dc for bytes or %d,%d for lines", start, last, start, last)
		case last < start:
			c := ""
			if bytes {
				c = "c"
			}
			return 0, 0, 0, p.errorf(at, "the range ends before it starts; write %d%s,%d%s", last, c, start, c)
		}
	}
	if i < end {
		return 0, 0, 0, p.errorf(i, "unexpected %s in the range; want N, N,N, Nc or Nc,Nc", p.describe(i))
	}
	return u, start, last, nil
}

// number parses N, with an optional "c", at s[i:end]; j is where it stops.
func (p selectorParser) number(i, end int) (n int, bytes bool, j int, err *SelectorError) {
	j = i
	for j < end && '0' <= p.s[j] && p.s[j] <= '9' {
		j++
	}
	if j == i {
		if i == end {
			return 0, false, 0, p.errorf(i, "missing number after %q", p.s[i-1])
		}
		return 0, false, 0, p.errorf(i, "unexpected %s in the range; want a number", p.describe(i))
	}
	bytes = j < end && p.s[j] == 'c'
	what := "line"
	if bytes {
		what = "byte"
	}
	n, msg := parseNumber(p.s[i:j], what)
	if msg != "" {
		return 0, false, 0, p.errorf(i, "%s", msg)
	}
	if bytes {
		j++
	}
	return n, bytes, j, nil
}

// parseNumber parses a string of ASCII digits as N; what is "line" or
// "byte". It returns a message saying what is wrong, or "".
func parseNumber(digits, what string) (int, string) {
	if digits == "" {
		return 0, "missing " + what + " number"
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, fmt.Sprintf("%q is not a %s number", digits, what)
		}
	}
	switch {
	case len(digits) > maxDigits:
		return 0, fmt.Sprintf("%s number %s has %d digits; at most 999999999", what, digits, len(digits))
	case strings.TrimLeft(digits, "0") == "":
		return 0, what + " numbers start at 1"
	case digits[0] == '0':
		return 0, fmt.Sprintf("%s number %s has a leading zero; write %s", what, digits, strings.TrimLeft(digits, "0"))
	}
	n, _ := strconv.Atoi(digits) // at most 9 digits: cannot fail
	return n, ""
}

// tags parses the tags at s[i:], which follow a "#", and returns them
// sorted and unique.
func (p selectorParser) tags(i int) ([]string, *SelectorError) {
	if i == len(p.s) {
		return nil, p.errorf(i, `empty tag list after "#"; add a tag or remove the "#"`)
	}
	var tags []string
	for {
		start := i
		for i < len(p.s) && p.s[i] != ',' {
			if !isTagByte(p.s[i]) {
				return nil, p.errorf(i, "%s is not allowed in a tag; tags use A-Z a-z 0-9 _ - .", p.describe(i))
			}
			i++
		}
		switch {
		case i == start:
			return nil, p.errorf(start, "empty tag; tags are separated by single commas")
		case i-start > maxTagChars:
			return nil, p.errorf(start, "tag is %d characters; at most %d", i-start, maxTagChars)
		}
		tags = append(tags, p.s[start:i])
		if i == len(p.s) {
			break
		}
		i++ // the ','
	}
	slices.Sort(tags)
	return slices.Compact(tags), nil
}

func isTagByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '_' || c == '-' || c == '.'
}

// String returns the canonical form of s: its clean path, the range
// ("::100,200", "::100", "::100c,500c", "::100c") unless Whole, and the
// sorted tags ("#a,b") if any. ParseSelector(s.String()) gives back s for
// every s that ParseSelector returned.
func (s Selector) String() string {
	var b strings.Builder
	b.WriteString(s.Path)
	switch s.Unit {
	case Lines:
		b.WriteString("::")
		writeRange(&b, s.Start, s.End, "", ",")
	case Bytes:
		b.WriteString("::")
		writeRange(&b, s.Start, s.End, "c", ",")
	}
	for i, t := range s.Tags {
		if i == 0 {
			b.WriteByte('#')
		} else {
			b.WriteByte(',')
		}
		b.WriteString(t)
	}
	return b.String()
}

// writeRange writes start, then sep and end unless end is 0, each number
// followed by suffix.
func writeRange(b *strings.Builder, start, end int, suffix, sep string) {
	b.WriteString(strconv.Itoa(start))
	b.WriteString(suffix)
	if end != 0 {
		b.WriteString(sep)
		b.WriteString(strconv.Itoa(end))
		b.WriteString(suffix)
	}
}

// Span returns s's range as a provenance span: "file" for the whole file,
// "lines=100:200", "lines=100:" (to the end), "bytes=100:500" or
// "bytes=100:". ParseSpan reads it back.
func (s Selector) Span() string {
	var b strings.Builder
	switch s.Unit {
	case Whole:
		return "file"
	case Lines:
		b.WriteString("lines=")
	case Bytes:
		b.WriteString("bytes=")
	default:
		return fmt.Sprintf("unit%d", s.Unit) // not a parsed selector; ParseSpan rejects it
	}
	writeRange(&b, s.Start, s.End, "", ":")
	if s.End == 0 {
		b.WriteByte(':')
	}
	return b.String()
}

// ParseSpan parses a span that Span returns: it gives the unit, the first
// line or byte and the last (0 for to the end), by the rules of a
// selector's range. Its errors start with "evidence: ".
func ParseSpan(span string) (u Unit, start, end int, err error) {
	fail := func(format string, args ...any) (Unit, int, int, error) {
		return 0, 0, 0, fmt.Errorf("evidence: span %q: %s", span, fmt.Sprintf(format, args...))
	}
	if span == "file" {
		return Whole, 0, 0, nil
	}
	name, rng, ok := strings.Cut(span, "=")
	what := ""
	switch {
	case !ok:
	case name == "lines":
		u, what = Lines, "line"
	case name == "bytes":
		u, what = Bytes, "byte"
	}
	if what == "" {
		return fail("want file, lines=A:B, lines=A:, bytes=A:B or bytes=A:")
	}
	first, last, ok := strings.Cut(rng, ":")
	if !ok {
		return fail(`missing ":" after the first %s`, what)
	}
	start, msg := parseNumber(first, what)
	if msg != "" {
		return fail("%s", msg)
	}
	if last != "" {
		if end, msg = parseNumber(last, what); msg != "" {
			return fail("%s", msg)
		}
		if end < start {
			return fail("the span ends before it starts")
		}
	}
	return u, start, end, nil
}

// Excerpt is what a selector selects from a file's text.
type Excerpt struct {
	Text string // the selected text, exactly the bytes of the range
	// StartLine and EndLine are the 1-based inclusive lines the text
	// covers (for a byte range: the lines of its first and last byte);
	// 0, 0 for an empty file.
	StartLine, EndLine int
	// StartByte and EndByte are the 0-based half-open byte offsets of Text
	// in the file: Text == text[StartByte:EndByte].
	StartByte, EndByte int
}

// Select applies s (its Path is not read: the caller passes the file's
// text) to text.
//
// Lines are separated by "\n" (a "\r" before it is part of the line); a
// last line without a newline counts as a line, so "" has no lines and
// "a\n" and "a" have one. Lines a..b run from the first byte of line a
// through the newline that ends line b, if any. Whole always succeeds (an
// empty file gives an empty excerpt). A range that starts or ends past the
// end of the file is an error, and so is a byte range that starts or ends
// inside a multi-byte UTF-8 character (bytes that are not valid UTF-8 are
// no character, and a range may start or end at any of them). Errors name
// the selector and the fix.
func (s Selector) Select(text string) (Excerpt, error) {
	if msg := s.invalid(); msg != "" {
		return Excerpt{}, fmt.Errorf("evidence: %q: not a parsed selector: %s", s.Path, msg)
	}
	switch s.Unit {
	case Lines:
		n := project.CountLines(text)
		if err := s.pastEnd(n, "line"); err != nil {
			return Excerpt{}, err
		}
		start := 0
		for range s.Start - 1 { // line s.Start <= n exists, so does its newline
			start += strings.IndexByte(text[start:], '\n') + 1
		}
		end := len(text)
		if s.End != 0 {
			end = start
			for range s.End - s.Start + 1 {
				i := strings.IndexByte(text[end:], '\n')
				if i < 0 {
					end = len(text)
					break
				}
				end += i + 1
			}
		}
		return excerpt(text, start, end), nil
	case Bytes:
		if err := s.pastEnd(len(text), "byte"); err != nil {
			return Excerpt{}, err
		}
		start, end := s.Start-1, len(text)
		if s.End != 0 {
			end = s.End
		}
		if first, last, ok := insideRune(text, start); ok {
			return Excerpt{}, fmt.Errorf("evidence: %s: the range splits a UTF-8 character at byte %d (the character is bytes %d-%d; start at byte %d)",
				s, s.Start, first, last, first)
		}
		if first, last, ok := insideRune(text, end); ok {
			return Excerpt{}, fmt.Errorf("evidence: %s: the range splits a UTF-8 character at byte %d (the character is bytes %d-%d; end at byte %d)",
				s, end, first, last, last)
		}
		return excerpt(text, start, end), nil
	}
	return excerpt(text, 0, len(text)), nil
}

// invalid says what makes s impossible to select with, or "" if nothing.
// ParseSelector never returns such a Selector; one built by hand can be.
func (s Selector) invalid() string {
	switch s.Unit {
	case Whole:
		if s.Start != 0 || s.End != 0 {
			return "a whole-file selector has no start or end"
		}
	case Lines, Bytes:
		if s.Start < 1 {
			return "the range starts before 1"
		}
		if s.End != 0 && s.End < s.Start {
			return "the range ends before it starts"
		}
	default:
		return fmt.Sprintf("unit %d is not Whole, Lines or Bytes", s.Unit)
	}
	return ""
}

// pastEnd reports a range that starts or ends past the n lines or bytes of
// the file.
func (s Selector) pastEnd(n int, what string) error {
	has := strconv.Itoa(n) + " " + what
	if n != 1 {
		has += "s"
	}
	switch {
	case s.Start > n:
		return fmt.Errorf("evidence: %s: the file has %s", s, has)
	case s.End > n:
		toEnd := s
		toEnd.End = 0
		return fmt.Errorf("evidence: %s: the file has %s (%s reads to the end)", s, has, toEnd)
	}
	return nil
}

// insideRune reports whether the byte offset i of text falls strictly
// inside a valid multi-byte UTF-8 character, and that character's 1-based
// first and last byte.
func insideRune(text string, i int) (first, last int, ok bool) {
	if i <= 0 || i >= len(text) || utf8.RuneStart(text[i]) {
		return 0, 0, false
	}
	for q := i - 1; q >= 0 && q >= i-(utf8.UTFMax-1); q-- {
		if utf8.RuneStart(text[q]) {
			_, size := utf8.DecodeRuneInString(text[q:])
			if size > 1 && q+size > i {
				return q + 1, q + size, true
			}
			return 0, 0, false
		}
	}
	return 0, 0, false
}

// excerpt is text[start:end] with the lines it covers.
func excerpt(text string, start, end int) Excerpt {
	e := Excerpt{Text: text[start:end], StartByte: start, EndByte: end}
	if end > start {
		e.StartLine = 1 + strings.Count(text[:start], "\n")
		e.EndLine = e.StartLine + strings.Count(text[start:end-1], "\n")
	}
	return e
}
