package evidence

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

var selectorSeeds = []string{
	"core/flow.sh",
	"core/flow.sh::100,200",
	"core/flow.sh::100",
	"core/flow.sh::100c,500c",
	"core/flow.sh::100c",
	"core/flow.sh#flow,manager",
	"core/flow.sh::100,200#bug",
	"./a//b/../c#z,a,z",
	"a::2,3",
	"a::2c,7c#x",
	"a::1,2c",
	"a::01",
	"a::0",
	"../x",
	"a:/::1",
	"./ a",
	"a#b,,c",
	"é/世::3c",
}

// FuzzParseSelector checks that ParseSelector never panics, that its
// errors are *SelectorErrors inside the input, and that what it accepts
// prints canonically: String parses back to the same Selector, printing
// again changes nothing, and ParseSpan reads Span back.
func FuzzParseSelector(f *testing.F) {
	for _, s := range selectorSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := ParseSelector(in)
		if err != nil {
			var se *SelectorError
			if !errors.As(err, &se) {
				t.Fatalf("ParseSelector(%q): error %T is not a *SelectorError: %v", in, err, err)
			}
			if se.Selector != in || se.Offset < 0 || se.Offset > len(in) {
				t.Errorf("ParseSelector(%q): error for %q at byte %d", in, se.Selector, se.Offset)
			}
			if !strings.HasPrefix(err.Error(), "evidence: selector ") || strings.ContainsAny(se.Msg, "\n\r") {
				t.Errorf("ParseSelector(%q): malformed error %q", in, err)
			}
			if !reflect.DeepEqual(s, Selector{}) {
				t.Errorf("ParseSelector(%q) returned %#v with its error", in, s)
			}
			return
		}
		canon := s.String()
		back, err := ParseSelector(canon)
		if err != nil {
			t.Fatalf("ParseSelector(%q) = %#v, whose String %q does not parse: %v", in, s, canon, err)
		}
		if !reflect.DeepEqual(back, s) {
			t.Errorf("ParseSelector(%q) = %#v, but its String %q parses to %#v", in, s, canon, back)
		}
		if again := back.String(); again != canon {
			t.Errorf("String is not idempotent: %q, then %q", canon, again)
		}
		if s.Tags != nil && len(s.Tags) == 0 {
			t.Errorf("ParseSelector(%q): empty non-nil Tags", in)
		}
		for i := 1; i < len(s.Tags); i++ {
			if s.Tags[i-1] >= s.Tags[i] {
				t.Errorf("ParseSelector(%q): tags %q are not sorted and unique", in, s.Tags)
			}
		}
		u, start, end, err := ParseSpan(s.Span())
		if err != nil || u != s.Unit || start != s.Start || end != s.End {
			t.Errorf("ParseSpan(%q) = %d, %d, %d, %v; want %d, %d, %d", s.Span(), u, start, end, err, s.Unit, s.Start, s.End)
		}
	})
}

// FuzzSelect checks that Select never panics and that what it selects is
// the bytes it says, covering the lines it says; line selections are
// checked against splitting the text into lines.
func FuzzSelect(f *testing.F) {
	texts := []string{"", "a", "a\n", "one\ntwo\nthree\n", "one\ntwo\nthree", "a\r\nb\r\n", "é世\n𝄞x\n", "\n\n\xff\x80"}
	for i, s := range selectorSeeds {
		f.Add(s, texts[i%len(texts)])
	}
	for _, s := range []string{"a::1", "a::2,2", "a::3c", "a::2c,3c", "a::1,9"} {
		for _, text := range texts {
			f.Add(s, text)
		}
	}
	f.Fuzz(func(t *testing.T, in, text string) {
		s, err := ParseSelector(in)
		if err != nil {
			return
		}
		e, err := s.Select(text)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "evidence: ") {
				t.Errorf("%s.Select(%q): error %q does not start with \"evidence: \"", s, text, err)
			}
			if s.Unit == Whole {
				t.Errorf("%s.Select(%q): a whole file failed: %v", s, text, err)
			}
			return
		}
		if e.StartByte < 0 || e.StartByte > e.EndByte || e.EndByte > len(text) || e.Text != text[e.StartByte:e.EndByte] {
			t.Fatalf("%s.Select(%q) = %+v: Text is not text[StartByte:EndByte]", s, text, e)
		}
		if e.StartLine > e.EndLine || (e.Text == "") != (e.StartLine == 0) {
			t.Errorf("%s.Select(%q) = %+v: bad lines", s, text, e)
		}
		if e.Text != "" {
			if want := 1 + strings.Count(text[:e.StartByte], "\n"); e.StartLine != want {
				t.Errorf("%s.Select(%q) = %+v: StartLine is not %d", s, text, e, want)
			}
			if want := 1 + strings.Count(text[:e.EndByte-1], "\n"); e.EndLine != want {
				t.Errorf("%s.Select(%q) = %+v: EndLine is not %d", s, text, e, want)
			}
		}
		switch s.Unit {
		case Whole:
			if e.Text != text {
				t.Errorf("%s.Select(%q) = %+v: not the whole text", s, text, e)
			}
		case Lines:
			lines := strings.SplitAfter(text, "\n")
			if lines[len(lines)-1] == "" {
				lines = lines[:len(lines)-1]
			}
			last := s.End
			if last == 0 {
				last = len(lines)
			}
			if s.Start > len(lines) || last > len(lines) {
				t.Fatalf("%s.Select(%q) = %+v, but the text has only %d lines", s, text, e, len(lines))
			}
			if want := strings.Join(lines[s.Start-1:last], ""); e.Text != want || e.StartLine != s.Start || e.EndLine != last {
				t.Errorf("%s.Select(%q) = %+v, want lines %d-%d %q", s, text, e, s.Start, last, want)
			}
			if e.StartByte > 0 && text[e.StartByte-1] != '\n' {
				t.Errorf("%s.Select(%q) = %+v: does not start at a line start", s, text, e)
			}
		case Bytes:
			if e.StartByte != s.Start-1 || (s.End != 0 && e.EndByte != s.End) || (s.End == 0 && e.EndByte != len(text)) {
				t.Errorf("%s.Select(%q) = %+v: not bytes %d-%d", s, text, e, s.Start, s.End)
			}
			if utf8.ValidString(text) && !utf8.ValidString(e.Text) {
				t.Errorf("%s.Select(%q) = %+v: splits a character of valid UTF-8", s, text, e)
			}
		}
	})
}
