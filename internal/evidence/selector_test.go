package evidence

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseSelector(t *testing.T) {
	long := strings.Repeat("x", 64)
	tests := []struct {
		in   string
		want Selector
		off  int    // the error's Offset, when msg is set
		msg  string // a substring of the error's Msg; "" if in parses
	}{
		// The examples.
		{in: "core/flow.sh", want: Selector{Path: "core/flow.sh"}},
		{in: "core/flow.sh::100,200", want: Selector{Path: "core/flow.sh", Unit: Lines, Start: 100, End: 200}},
		{in: "core/flow.sh::100", want: Selector{Path: "core/flow.sh", Unit: Lines, Start: 100}},
		{in: "core/flow.sh::100c,500c", want: Selector{Path: "core/flow.sh", Unit: Bytes, Start: 100, End: 500}},
		{in: "core/flow.sh::100c", want: Selector{Path: "core/flow.sh", Unit: Bytes, Start: 100}},
		{in: "core/flow.sh#flow,manager", want: Selector{Path: "core/flow.sh", Tags: []string{"flow", "manager"}}},
		{in: "core/flow.sh::100,200#bug", want: Selector{Path: "core/flow.sh", Unit: Lines, Start: 100, End: 200, Tags: []string{"bug"}}},

		// Edges that parse.
		{in: "a", want: Selector{Path: "a"}},
		{in: "a::1,1", want: Selector{Path: "a", Unit: Lines, Start: 1, End: 1}},
		{in: "a::999999999", want: Selector{Path: "a", Unit: Lines, Start: 999999999}},
		{in: "a::1c,999999999c", want: Selector{Path: "a", Unit: Bytes, Start: 1, End: 999999999}},
		{in: "./a//b/../c#z,a,z", want: Selector{Path: "a/c", Tags: []string{"a", "z"}}},
		{in: "a/#t", want: Selector{Path: "a", Tags: []string{"t"}}},
		{in: "my dir/a file.go::3", want: Selector{Path: "my dir/a file.go", Unit: Lines, Start: 3}},
		{in: "a:b/c:", want: Selector{Path: "a:b/c:"}},
		{in: "a:#x", want: Selector{Path: "a:", Tags: []string{"x"}}},
		{in: "héllo/世界.md::2c", want: Selector{Path: "héllo/世界.md", Unit: Bytes, Start: 2}},
		{in: "..a/b", want: Selector{Path: "..a/b"}},
		{in: "a#" + long + ",A-_.9", want: Selector{Path: "a", Tags: []string{"A-_.9", long}}},
		{in: strings.Repeat("p", 4096), want: Selector{Path: strings.Repeat("p", 4096)}},

		// Inputs that must fail.
		{in: "", off: 0, msg: "empty selector"},
		{in: "::", off: 0, msg: "empty path"},
		{in: "#a", off: 0, msg: "empty path"},
		{in: "a::", off: 3, msg: "empty range"},
		{in: "a::#t", off: 3, msg: "empty range"},
		{in: "a::0", off: 3, msg: "line numbers start at 1"},
		{in: "core/flow.sh::0,5", off: 14, msg: "line numbers start at 1"},
		{in: "a::0c", off: 3, msg: "byte numbers start at 1"},
		{in: "a::1,0", off: 5, msg: "line numbers start at 1"},
		{in: "a::5,3", off: 5, msg: "ends before it starts; write 3,5"},
		{in: "a::4,3", off: 5, msg: "ends before it starts; write 3,4"},
		{in: "a::5c,3c", off: 6, msg: "ends before it starts; write 3c,5c"},
		{in: "a::1,2c", off: 5, msg: "mixed units"},
		{in: "a::1c,2", off: 6, msg: "mixed units"},
		{in: "a::01", off: 3, msg: "leading zero; write 1"},
		{in: "a::00", off: 3, msg: "start at 1"},
		{in: "a::1234567890", off: 3, msg: "10 digits"},
		{in: "a::1,1234567890", off: 5, msg: "10 digits"},
		{in: "a::1,", off: 5, msg: `missing number after ','`},
		{in: "a::c", off: 3, msg: "unexpected 'c'"},
		{in: "a::-1", off: 3, msg: "unexpected '-'"},
		{in: "a::1 ,2", off: 4, msg: "unexpected a space"},
		{in: "a::1, 2", off: 5, msg: "unexpected a space"},
		{in: "a::1,2,3", off: 6, msg: "unexpected ','"},
		{in: "a::1cc", off: 5, msg: "unexpected 'c'"},
		{in: "a::1,2::3", off: 6, msg: "unexpected ':'"},
		{in: "a:::1", off: 3, msg: "unexpected ':'"},
		{in: "a::\xff", off: 3, msg: "byte 0xff"},
		{in: "/etc/passwd", off: 0, msg: "absolute path"},
		{in: "../x", off: 0, msg: "escapes the project root"},
		{in: "..", off: 0, msg: "escapes the project root"},
		{in: "a/../../x", off: 0, msg: "escapes the project root"},
		{in: ".", off: 0, msg: "names the project root, not a file"},
		{in: "a/..::1", off: 0, msg: "names the project root, not a file"},
		{in: "./", off: 0, msg: "names the project root, not a file"},
		{in: "a#", off: 2, msg: "empty tag list"},
		{in: "a::1,2#", off: 7, msg: "empty tag list"},
		{in: "a#,b", off: 2, msg: "empty tag"},
		{in: "a#b,", off: 4, msg: "empty tag"},
		{in: "a#b,,c", off: 4, msg: "empty tag"},
		{in: "a#b c", off: 3, msg: "a space is not allowed in a tag"},
		{in: "a#b#c", off: 3, msg: "'#' is not allowed in a tag"},
		{in: "a#b::1", off: 3, msg: "':' is not allowed in a tag"},
		{in: "a#é", off: 2, msg: "'é' is not allowed in a tag"},
		{in: "a#" + long + "x", off: 2, msg: "tag is 65 characters; at most 64"},
		{in: "a\\b", off: 1, msg: "backslash"},
		{in: "a\x00b", off: 1, msg: "control character"},
		{in: "a\x7fb", off: 1, msg: "control character"},
		{in: "a\xffb", off: 1, msg: "invalid UTF-8"},
		{in: " a", off: 0, msg: "starts with a space"},
		{in: "a ", off: 1, msg: "ends with a space"},
		{in: "\ta", off: 0, msg: `starts with whitespace '\t'`},
		{in: "a\n", off: 1, msg: `ends with whitespace '\n'`},
		{in: "a\u00a0", off: 1, msg: "ends with whitespace"},
		{in: "./ a", off: 0, msg: `cleans to " a", which starts with a space`},
		{in: "a /.", off: 4, msg: `cleans to "a ", which ends with a space`},
		{in: "a:/::1", off: 3, msg: `runs into the "::"`},
		{in: strings.Repeat("p", 4097), off: 4096, msg: "path is 4097 bytes; at most 4096"},
	}
	fails := 0
	for _, tt := range tests {
		got, err := ParseSelector(tt.in)
		if tt.msg == "" {
			if err != nil {
				t.Errorf("ParseSelector(%q): %v", tt.in, err)
			} else if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseSelector(%q) = %#v, want %#v", tt.in, got, tt.want)
			}
			continue
		}
		fails++
		var se *SelectorError
		if !errors.As(err, &se) {
			t.Errorf("ParseSelector(%q) = %#v, %v; want a *SelectorError", tt.in, got, err)
			continue
		}
		if !reflect.DeepEqual(got, Selector{}) {
			t.Errorf("ParseSelector(%q) returned %#v with its error", tt.in, got)
		}
		if se.Selector != tt.in || se.Offset != tt.off || !strings.Contains(se.Msg, tt.msg) {
			t.Errorf("ParseSelector(%q) = %q at byte %d: %q; want at byte %d: ...%q...", tt.in, se.Selector, se.Offset, se.Msg, tt.off, tt.msg)
		}
		if !strings.HasPrefix(err.Error(), "evidence: selector ") {
			t.Errorf("ParseSelector(%q): error %q does not start with \"evidence: selector \"", tt.in, err)
		}
	}
	if fails < 15 {
		t.Errorf("only %d inputs that must fail; want at least 15", fails)
	}
}

func TestSelectorErrorMessage(t *testing.T) {
	_, err := ParseSelector("core/flow.sh::0,5")
	const want = `evidence: selector "core/flow.sh::0,5": at byte 14: line numbers start at 1`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %s", err, want)
	}
}

func TestSelectorString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"core/flow.sh", "core/flow.sh"},
		{"core/flow.sh::100,200", "core/flow.sh::100,200"},
		{"core/flow.sh::100", "core/flow.sh::100"},
		{"core/flow.sh::100c,500c", "core/flow.sh::100c,500c"},
		{"core/flow.sh::100c", "core/flow.sh::100c"},
		{"core/flow.sh#flow,manager", "core/flow.sh#flow,manager"},
		{"core/flow.sh::100,200#bug", "core/flow.sh::100,200#bug"},
		{"./a//b/../c#z,a,z", "a/c#a,z"},
		{"./core/./flow.sh::7,7#b,a,b", "core/flow.sh::7,7#a,b"},
		{"a/b/::5c#T,t", "a/b::5c#T,t"},
		{"x/../y", "y"},
		{"a:/#t", "a:#t"},
	}
	for _, tt := range tests {
		s, err := ParseSelector(tt.in)
		if err != nil {
			t.Errorf("ParseSelector(%q): %v", tt.in, err)
			continue
		}
		got := s.String()
		if got != tt.want {
			t.Errorf("ParseSelector(%q).String() = %q, want %q", tt.in, got, tt.want)
		}
		back, err := ParseSelector(got)
		if err != nil {
			t.Errorf("ParseSelector(%q) (the canonical form of %q): %v", got, tt.in, err)
		} else if !reflect.DeepEqual(back, s) {
			t.Errorf("ParseSelector(%q) = %#v, want %#v (from %q)", got, back, s, tt.in)
		}
	}
}

func TestSelect(t *testing.T) {
	const (
		nl   = "one\ntwo\nthree\n" // lines at bytes 0-3, 4-7, 8-13
		bare = "one\ntwo\nthree"
		crlf = "a\r\nb\r\nc\r\n"
		utf  = "é世\n𝄞x\n" // é 0-1, 世 2-4, \n 5, 𝄞 6-9, x 10, \n 11
	)
	tests := []struct {
		sel, text string
		want      Excerpt
		err       string // the whole error; "" if none
	}{
		{"a", nl, Excerpt{nl, 1, 3, 0, 14}, ""},
		{"a", bare, Excerpt{bare, 1, 3, 0, 13}, ""},
		{"a", "", Excerpt{}, ""},
		{"a", "\n", Excerpt{"\n", 1, 1, 0, 1}, ""},
		{"a", "x\n\n", Excerpt{"x\n\n", 1, 2, 0, 3}, ""},
		{"a#t", utf, Excerpt{utf, 1, 2, 0, 12}, ""},

		{"a::1,1", nl, Excerpt{"one\n", 1, 1, 0, 4}, ""},
		{"a::2,3", nl, Excerpt{"two\nthree\n", 2, 3, 4, 14}, ""},
		{"a::2", nl, Excerpt{"two\nthree\n", 2, 3, 4, 14}, ""},
		{"a::3", nl, Excerpt{"three\n", 3, 3, 8, 14}, ""},
		{"a::1,3", nl, Excerpt{nl, 1, 3, 0, 14}, ""},
		{"a::3,3", bare, Excerpt{"three", 3, 3, 8, 13}, ""},
		{"a::2", bare, Excerpt{"two\nthree", 2, 3, 4, 13}, ""},
		{"a::1,2", bare, Excerpt{"one\ntwo\n", 1, 2, 0, 8}, ""},
		{"a::1", "a", Excerpt{"a", 1, 1, 0, 1}, ""},
		{"a::2,2", "\n\n", Excerpt{"\n", 2, 2, 1, 2}, ""},
		{"a::2,2", crlf, Excerpt{"b\r\n", 2, 2, 3, 6}, ""},
		{"a::2,2", utf, Excerpt{"𝄞x\n", 2, 2, 6, 12}, ""},
		{"a::4", nl, Excerpt{}, "evidence: a::4: the file has 3 lines"},
		{"core/flow.sh::4,5", bare, Excerpt{}, "evidence: core/flow.sh::4,5: the file has 3 lines"},
		{"core/flow.sh::2,4#bug", nl, Excerpt{}, "evidence: core/flow.sh::2,4#bug: the file has 3 lines (core/flow.sh::2#bug reads to the end)"},
		{"a::1", "", Excerpt{}, "evidence: a::1: the file has 0 lines"},
		{"a::1,2", "x", Excerpt{}, "evidence: a::1,2: the file has 1 line (a::1 reads to the end)"},
		{"a::999999999", nl, Excerpt{}, "evidence: a::999999999: the file has 3 lines"},

		{"a::1c,1c", nl, Excerpt{"o", 1, 1, 0, 1}, ""},
		{"a::2c,6c", nl, Excerpt{"ne\ntw", 1, 2, 1, 6}, ""},
		{"a::4c,4c", nl, Excerpt{"\n", 1, 1, 3, 4}, ""},
		{"a::5c", bare, Excerpt{"two\nthree", 2, 3, 4, 13}, ""},
		{"a::14c", nl, Excerpt{"\n", 3, 3, 13, 14}, ""},
		{"a::2c,3c", crlf, Excerpt{"\r\n", 1, 1, 1, 3}, ""},
		{"a::1c,2c", utf, Excerpt{"é", 1, 1, 0, 2}, ""},
		{"a::3c,10c", utf, Excerpt{"世\n𝄞", 1, 2, 2, 10}, ""},
		{"a::7c", "ascii\xa9\x80z", Excerpt{"\x80z", 1, 1, 6, 8}, ""}, // not UTF-8: no character to split
		{"a::2c,2c", "\xe4\xb8x", Excerpt{"\xb8", 1, 1, 1, 2}, ""},    // a truncated character is none either
		{"a::2c", utf, Excerpt{}, "evidence: a::2c: the range splits a UTF-8 character at byte 2 (the character is bytes 1-2; start at byte 1)"},
		{"a::1c,3c", utf, Excerpt{}, "evidence: a::1c,3c: the range splits a UTF-8 character at byte 3 (the character is bytes 3-5; end at byte 5)"},
		{"a::8c,9c", utf, Excerpt{}, "evidence: a::8c,9c: the range splits a UTF-8 character at byte 8 (the character is bytes 7-10; start at byte 7)"},
		{"a::1c,9c", utf, Excerpt{}, "evidence: a::1c,9c: the range splits a UTF-8 character at byte 9 (the character is bytes 7-10; end at byte 10)"},
		{"a::15c", nl, Excerpt{}, "evidence: a::15c: the file has 14 bytes"},
		{"a::1c", "", Excerpt{}, "evidence: a::1c: the file has 0 bytes"},
		{"core/flow.sh::10c,15c", nl, Excerpt{}, "evidence: core/flow.sh::10c,15c: the file has 14 bytes (core/flow.sh::10c reads to the end)"},
		{"a::1c,2c", "x", Excerpt{}, "evidence: a::1c,2c: the file has 1 byte (a::1c reads to the end)"},
	}
	for _, tt := range tests {
		s, err := ParseSelector(tt.sel)
		if err != nil {
			t.Fatalf("ParseSelector(%q): %v", tt.sel, err)
		}
		got, err := s.Select(tt.text)
		switch {
		case tt.err != "":
			if err == nil || err.Error() != tt.err {
				t.Errorf("%s.Select(%q) = %+v, %v; want error %s", tt.sel, tt.text, got, err, tt.err)
			}
		case err != nil:
			t.Errorf("%s.Select(%q): %v", tt.sel, tt.text, err)
		case got != tt.want:
			t.Errorf("%s.Select(%q) = %+v, want %+v", tt.sel, tt.text, got, tt.want)
		}
	}
}

// TestSelectInvalid checks that a Selector no parse returns is an error,
// never a panic.
func TestSelectInvalid(t *testing.T) {
	for _, s := range []Selector{
		{Path: "a", Unit: Lines},
		{Path: "a", Unit: Bytes, Start: -5},
		{Path: "a", Unit: Lines, Start: 5, End: 3},
		{Path: "a", Unit: Whole, Start: 1},
		{Path: "a", Unit: 9, Start: 1},
		{Path: "a", Unit: -1},
	} {
		if got, err := s.Select("x\ny\n"); err == nil || !strings.HasPrefix(err.Error(), "evidence: ") {
			t.Errorf("%#v.Select = %+v, %v; want an error", s, got, err)
		}
	}
	// Huge numbers built by hand are only past the end.
	huge := Selector{Path: "a", Unit: Bytes, Start: 1, End: int(^uint(0) >> 1)}
	if _, err := huge.Select("x"); err == nil || !strings.Contains(err.Error(), "the file has 1 byte") {
		t.Errorf("%#v.Select: %v; want past the end", huge, err)
	}
}

func TestSpan(t *testing.T) {
	tests := []struct {
		sel, span string
	}{
		{"a", "file"},
		{"a#t", "file"},
		{"a::100,200", "lines=100:200"},
		{"a::100", "lines=100:"},
		{"a::7,7", "lines=7:7"},
		{"a::100c,500c", "bytes=100:500"},
		{"a::100c", "bytes=100:"},
		{"a::999999999c,999999999c", "bytes=999999999:999999999"},
	}
	for _, tt := range tests {
		s, err := ParseSelector(tt.sel)
		if err != nil {
			t.Fatalf("ParseSelector(%q): %v", tt.sel, err)
		}
		if got := s.Span(); got != tt.span {
			t.Errorf("%s.Span() = %q, want %q", tt.sel, got, tt.span)
		}
		u, start, end, err := ParseSpan(tt.span)
		if err != nil || u != s.Unit || start != s.Start || end != s.End {
			t.Errorf("ParseSpan(%q) = %d, %d, %d, %v; want %d, %d, %d", tt.span, u, start, end, err, s.Unit, s.Start, s.End)
		}
	}
	for _, bad := range []string{
		"", "File", "file ", "lines", "lines=", "lines=1", "lines=:5", "lines=0:", "lines=01:",
		"lines=5:3", "lines=5:4", "lines=1:2:3", "lines=1:x", "bytes=+1:", "bytes=1:-2", "chars=1:2",
		"lines=1234567890:", "lines= 1:2", "unit9",
	} {
		if u, start, end, err := ParseSpan(bad); err == nil || !strings.HasPrefix(err.Error(), "evidence: ") {
			t.Errorf("ParseSpan(%q) = %d, %d, %d, %v; want an error starting \"evidence: \"", bad, u, start, end, err)
		}
	}
}
