package render

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Format is an output format.
type Format string

// The output formats.
const (
	Text     Format = "text"
	Markdown Format = "markdown"
	Doc      Format = "doc"
	XML      Format = "xml"
	JSON     Format = "json"
	// MDCtx is the mdctx seed's prompt format: a version comment, "# System"
	// and "# User Request" sections, and one "## Evidence: NAME" section
	// per block with a provenance comment (source URI and content id).
	MDCtx Format = "mdctx"
)

// MDCtxVersion is the version the mdctx format's first line declares.
const MDCtxVersion = "1.0"

// Formats lists the formats in the order --help shows them.
func Formats() []Format { return []Format{Text, Markdown, Doc, XML, JSON, MDCtx} }

// ParseFormat returns the format named s ("md" is accepted for markdown).
func ParseFormat(s string) (Format, error) {
	switch s {
	case "", "text":
		return Text, nil
	case "markdown", "md":
		return Markdown, nil
	case "doc":
		return Doc, nil
	case "xml":
		return XML, nil
	case "json":
		return JSON, nil
	case "mdctx":
		return MDCtx, nil
	}
	names := make([]string, 0, 6)
	for _, f := range Formats() {
		names = append(names, string(f))
	}
	return "", fmt.Errorf("render: unknown format %q (valid: %s)", s, strings.Join(names, ", "))
}

// Content is the format the context itself is written in: the json format
// carries text-format content inside its plan.
func (f Format) Content() Format {
	if f == JSON {
		return Text
	}
	return f
}

// Block is one part of the context as it is shown.
type Block struct {
	Type  string // "spec", "code", "identity"…: the section word of the text format
	Label string // the part's display name: an artifact id, "src/a.go:10-40"
	Path  string // slash path relative to the project root, "" if none
	Lines [2]int // 1-based inclusive line span; zero if none
	Doc   string // the document the block belongs to; consecutive blocks of one document share a doc-format header
	Lang  string // language for markdown fences: "go", "python"; "" or "markdown" for prose
	Text  string // the text at the chosen level
	// Section, when not empty, is the title of the section the block is
	// shown under (sources mode: "Memories", "Commits"). In markdown, a
	// run of blocks of one section is headed "## Section" and each block
	// is shown bare: its text, formatted by the collector, and a blank
	// line. In mdctx the run is headed "# Section". The other formats
	// ignore it.
	Section string
	// CID is the content id of the block's part ("sha256:…"): mdctx shows
	// it in the block's provenance comment.
	CID string
	// Shown, when not empty, is the level the block is shown at when it is
	// less than its part whole ("meta", "summary", "detailed"); Rest is how
	// to get the whole (a command), "" if there is no such way. The
	// block's header then says so, with the lines it covers (Note): the
	// text format's "=== TYPE: LABEL (NOTE) ===", the markdown and mdctx
	// headings likewise, a "[NOTE]" line before the text in doc, and a
	// <shown> element after <source> in xml. A block shown whole has
	// neither, and its header says nothing more.
	Shown, Rest string
}

// Note is what the header of a block shown at less than whole says of it:
// "summary of lines 1-1536; full: ctxpack summarize app.py --depth full",
// the lines left out when the label ends with them ("app.py:10-90":
// "detailed; full: …"); "" for a block shown whole.
func Note(b Block) string {
	if b.Shown == "" {
		return ""
	}
	s := b.Shown
	if span := strconv.Itoa(b.Lines[0]) + "-" + strconv.Itoa(b.Lines[1]); b.Lines[0] > 0 && !strings.HasSuffix(b.Label, ":"+span) {
		s += " of lines " + span // unless the label names them already
	}
	if b.Rest != "" {
		s += "; full: " + b.Rest
	}
	return strings.ReplaceAll(s, "\n", " ")
}

// noted is title followed by the block's note in parentheses, if it has
// one.
func noted(title string, b Block) string {
	if n := Note(b); n != "" {
		return title + " (" + n + ")"
	}
	return title
}

// Open returns what the format writes before the first block: the XML
// wrapper, and the metadata line when meta is not empty (CFS-021's
// include_metadata: what was assembled, for whom, from which state).
func Open(f Format, meta string) string {
	meta = strings.ReplaceAll(meta, "\n", " ")
	switch f.Content() {
	case MDCtx:
		if meta != "" {
			return "<!-- mdctx:version=" + MDCtxVersion + "; " + commentText(meta) + " -->\n\n"
		}
		return "<!-- mdctx:version=" + MDCtxVersion + " -->\n\n"
	case XML:
		if meta != "" {
			return "<documents>\n<!-- ctxpack: " + commentText(xmlChars(meta)) + " -->\n"
		}
		return "<documents>\n"
	case Markdown:
		if meta != "" {
			return "<!-- ctxpack: " + commentText(meta) + " -->\n\n"
		}
	case Doc:
		if meta != "" {
			return "[CTXPACK: " + meta + "]\n"
		}
	default:
		if meta != "" {
			return "=== CTXPACK: " + meta + " ===\n"
		}
	}
	return ""
}

// Close returns what the format writes after the last block.
func Close(f Format) string {
	if f.Content() == XML {
		return "</documents>\n"
	}
	return ""
}

// RunHeader returns the header the block needs after the block prev (the
// zero Block at the start): in the doc format, a "[DOC: path]" line when
// prev belongs to another document; in markdown, a "## Section" heading
// when the block has a section and prev is of another (in mdctx, a
// "# Section" heading). The other formats give each block its own header.
func RunHeader(f Format, b Block, prev Block) string {
	switch f.Content() {
	case Doc:
		if prev.Doc != "" && prev.Doc == b.Doc {
			return ""
		}
		return "[DOC: " + name(b) + "]\n"
	case Markdown, MDCtx:
		if prev.Section == b.Section {
			return ""
		}
		return SectionHeading(f, b.Section)
	}
	return ""
}

// SectionHeading is the heading shown before the first block of a
// section: "## Title" in markdown, "# Title" in mdctx; "" in the other
// formats. The engine counts it with the block that starts the section.
func SectionHeading(f Format, title string) string {
	if title == "" {
		return ""
	}
	title = strings.ReplaceAll(title, "\n", " ")
	switch f.Content() {
	case Markdown:
		return "## " + title + "\n\n"
	case MDCtx:
		return "# " + title + "\n\n"
	}
	return ""
}

// Body returns the block's own text in format f, ending with a newline.
func Body(f Format, b Block) string {
	var s strings.Builder
	switch f.Content() {
	case MDCtx:
		if b.Section != "" {
			s.WriteString(withNewline(b.Text))
			s.WriteString("\n")
			break
		}
		title := b.Label
		if title == "" {
			title = name(b)
		}
		s.WriteString("## Evidence: ")
		s.WriteString(noted(strings.ReplaceAll(title, "\n", " "), b))
		s.WriteString("\n<!-- ")
		s.WriteString(provenance(b)) // URIPath, hex and digits: no "--"
		s.WriteString(" -->\n\n")
		writeFenced(&s, b)
		s.WriteString("\n")
	case Doc:
		if n := Note(b); n != "" {
			s.WriteString("[" + n + "]\n")
		}
		s.WriteString(withNewline(b.Text))
	case Markdown:
		if b.Section != "" {
			s.WriteString(withNewline(b.Text))
			s.WriteString("\n")
			break
		}
		s.WriteString("## ")
		s.WriteString(noted(heading(b), b))
		s.WriteString("\n\n")
		writeFenced(&s, b)
		s.WriteString("\n")
	case XML:
		s.WriteString("<document>\n<source>")
		s.WriteString(escapeXML(source(b)))
		s.WriteString("</source>\n")
		if n := Note(b); n != "" {
			s.WriteString("<shown>" + escapeXML(n) + "</shown>\n")
		}
		s.WriteString("<document_content>")
		writeCDATA(&s, "\n"+withNewline(b.Text))
		s.WriteString("</document_content>\n</document>\n")
	default:
		s.WriteString("=== ")
		s.WriteString(noted(heading(b), b))
		s.WriteString(" ===\n")
		s.WriteString(withNewline(b.Text))
	}
	return s.String()
}

// writeFenced writes the block's text, in a code fence when it is code.
func writeFenced(s *strings.Builder, b Block) {
	if b.Lang == "" || b.Lang == "markdown" {
		s.WriteString(withNewline(b.Text))
		return
	}
	fence := Fence(b.Text)
	s.WriteString(fence + b.Lang + "\n")
	s.WriteString(withNewline(b.Text))
	s.WriteString(fence + "\n")
}

// provenance is the mdctx provenance of a block: its source URI (a
// project file, or ctxpack:NAME for a part that is not one), its content
// id and its line span.
func provenance(b Block) string {
	var s strings.Builder
	if b.Path != "" {
		s.WriteString("source_uri=file://" + URIPath(b.Path))
	} else {
		s.WriteString("source_uri=ctxpack:" + URIPath(name(b)))
	}
	if b.CID != "" {
		s.WriteString("; cid=" + b.CID)
	}
	if b.Lines[0] > 0 {
		s.WriteString("; span=lines=" + strconv.Itoa(b.Lines[0]) + ":" + strconv.Itoa(b.Lines[1]))
	}
	return s.String()
}

// URIPath percent-encodes p for a URI in a comment: every byte outside
// [A-Za-z0-9/._~:-], and a "-" that follows another, so that the URI
// holds no "; ", space, "--" or "-->".
func URIPath(p string) string {
	var s strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("/._~:", c) >= 0 || c == '-' && (i == 0 || p[i-1] != '-') {
			s.WriteByte(c)
			continue
		}
		fmt.Fprintf(&s, "%%%02X", c)
	}
	return s.String()
}

// Segment is the block as it appears after the block prev (the zero
// Block at the start).
func Segment(f Format, b Block, prev Block) string {
	return RunHeader(f, b, prev) + Body(f, b)
}

// Content renders blocks in order: Open, every Segment, Close. No blocks
// render as nothing at all.
func Content(f Format, meta string, blocks []Block) string {
	if len(blocks) == 0 {
		return ""
	}
	var s strings.Builder
	s.WriteString(Open(f, meta))
	var prev Block
	for _, b := range blocks {
		s.WriteString(Segment(f, b, prev))
		prev = b
	}
	s.WriteString(Close(f))
	return s.String()
}

// heading is "TYPE: LABEL", just "TYPE" when the block has no label of its
// own (the project identity), or just the name when it has no type.
func heading(b Block) string {
	if b.Type == "" {
		return name(b)
	}
	t := strings.ToUpper(b.Type)
	if b.Label == "" || strings.EqualFold(b.Label, b.Type) {
		return t
	}
	return t + ": " + b.Label
}

// name is what a block is called where one name is shown: its path, else
// its label, else its type.
func name(b Block) string {
	switch {
	case b.Path != "":
		return b.Path
	case b.Label != "":
		return b.Label
	}
	return b.Type
}

// source names where a block comes from: its path with the line span, or
// its name when it has no path.
func source(b Block) string {
	if b.Path == "" {
		return name(b)
	}
	if b.Lines[0] > 0 {
		return b.Path + ":" + strconv.Itoa(b.Lines[0]) + "-" + strconv.Itoa(b.Lines[1])
	}
	return b.Path
}

// commentText returns s with a space put between any two hyphens, so that
// it holds no "--", which may not appear in an XML comment and "-->" of
// which would end an HTML one. One pass is not enough: "---" becomes
// "- --".
func commentText(s string) string {
	for strings.Contains(s, "--") {
		s = strings.ReplaceAll(s, "--", "- -")
	}
	return s
}

func withNewline(s string) string {
	if s == "" || strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}

// Fence returns a backtick fence longer than any backtick run in s, at
// least three: s can be shown in a markdown code block between two.
func Fence(s string) string {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// escapeXML is s as XML character data: xmlChars, with &, < and >
// escaped.
func escapeXML(s string) string { return xmlEscaper.Replace(xmlChars(s)) }

// writeCDATA writes s as one CDATA section, so that code reads as it is,
// "<" and "&" included: xmlChars, and every "]]>" in s, which would end
// the section, split across two ("]]" ends one, ">" starts the next).
func writeCDATA(w *strings.Builder, s string) {
	w.WriteString("<![CDATA[")
	w.WriteString(strings.ReplaceAll(xmlChars(s), "]]>", "]]]]><![CDATA[>"))
	w.WriteString("]]>")
}

// xmlChars returns s with every character XML 1.0 does not allow
// replaced by U+FFFD: the C0 controls but tab, newline and carriage
// return, U+FFFE and U+FFFF, and each byte of invalid UTF-8. A document
// that held them would not be XML at all.
func xmlChars(s string) string {
	if utf8.ValidString(s) && strings.IndexFunc(s, notXMLChar) < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s { // each byte of invalid UTF-8 comes as U+FFFD
		if notXMLChar(r) {
			r = utf8.RuneError
		}
		b.WriteRune(r)
	}
	return b.String()
}

// notXMLChar reports whether XML 1.0 does not allow r (its Char
// production).
func notXMLChar(r rune) bool {
	switch {
	case r < 0x20:
		return r != '\t' && r != '\n' && r != '\r'
	case r <= 0xD7FF:
		return false
	case r < 0xE000:
		return true
	case r <= 0xFFFD:
		return false
	case r < 0x10000:
		return true
	}
	return r > 0x10FFFF
}
