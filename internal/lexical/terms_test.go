package lexical

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTerms(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // space-separated
	}{
		{"", ""},
		{"hello", "hello"},
		{"camelCase", "camelcase camel case"},
		{"PascalCase", "pascalcase pascal case"},
		{"HTTPServer", "httpserver http server"},
		{"ServeHTTP", "servehttp serve http"},
		{"parseHTTP2Request", "parsehttp2request parse http request"},
		{"snake_case_name", "snakecasename snake case name"},
		{"max-file-bytes", "maxfilebytes max file bytes"},
		{"a - b", ""}, // subtraction, single letters
		{"x-y", "xy"}, // joined; the one-byte parts are left out
		{"well-known", "wellknown well known"},
		{"--flag", "flag"}, // a leading hyphen does not join
		{"a--b", ""},       // a double hyphen does not join
		{"utf8", "utf8 utf"},
		{"sha256sum", "sha256sum sha 256 sum"},
		{"Int64Value", "int64value int 64 value"},
		{"v2", "v2"},
		{"__init__", "init"},
		{"_private", "private"},
		{"i", ""}, // single ASCII bytes are left out
		{"os.ReadFile(name)", "os readfile read file name"},
		{"internal/project/walk.go", "internal project walk go"},
		{"ÜberSchall", "überschall über schall"},
		{"naïve café", "naïve café"},
		{"日本語", "日本語"},
		{"é", "é"}, // one rune, two bytes: kept
		{"ABc", "abc bc"},
		{"IOError", "ioerror io error"},
		{"getX", "getx get"},
		{"x\xffy", ""}, // invalid UTF-8 separates
		{"foo\xffbar", "foo bar"},
		{"404 NotFound", "404 notfound not found"},
		{strings.Repeat("a", MaxTermBytes), strings.Repeat("a", MaxTermBytes)},
		{strings.Repeat("a", MaxTermBytes+1), ""},
		{strings.Repeat("ab", 40) + "Cd", "cd"},
	} {
		got := strings.Join(Terms(tc.in), " ")
		if got != tc.want {
			t.Errorf("Terms(%q) = %q, want %q", tc.in, got, tc.want)
		}
		var b []byte
		if got := strings.TrimSuffix(string(AppendTermsText(b, tc.in)), " "); got != tc.want {
			t.Errorf("AppendTermsText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestQueryTerms(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"ReadFile read the file; readFile again", []string{"readfile", "read", "file"}},
		// Stop words go, but not the parts of an identifier.
		{"how are blueprints registered", []string{"blueprints", "registered"}},
		{"is_valid of the box", []string{"isvalid", "is", "valid", "box"}},
		// A query of stop words alone keeps them.
		{"How are they?", []string{"how", "are", "they"}},
	} {
		if got := QueryTerms(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("QueryTerms(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// checkTerms checks the invariants every output of Terms keeps.
func checkTerms(t *testing.T, in string, terms []string) {
	t.Helper()
	for _, term := range terms {
		if term == "" {
			t.Fatalf("Terms(%q): empty term", in)
		}
		if len(term) > MaxTermBytes {
			t.Fatalf("Terms(%q): term %q is longer than %d bytes", in, term, MaxTermBytes)
		}
		if strings.ToLower(term) != term {
			t.Fatalf("Terms(%q): term %q is not lower case", in, term)
		}
		if !utf8.ValidString(term) {
			t.Fatalf("Terms(%q): term %q is not valid UTF-8", in, term)
		}
		for i := 0; i < len(term); i++ {
			c := term[i]
			if c < utf8.RuneSelf && !('a' <= c && c <= 'z' || '0' <= c && c <= '9') {
				t.Fatalf("Terms(%q): term %q holds %q, which FTS5's ascii tokenizer splits on", in, term, c)
			}
		}
		if len(term) == 1 {
			t.Fatalf("Terms(%q): one-byte term %q", in, term)
		}
	}
}

func FuzzTerms(f *testing.F) {
	for _, s := range []string{"", "camelCase HTTPServer snake_case kebab-case", "日本語 ÜberSchall naïve", "x\xffy", "İstanbul ǅemal ΣΑΣ", "a-b-c--d", "func (s *Server) ServeHTTP(w ResponseWriter, r *Request) {", "\u0301a\u0301B"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a := Terms(s)
		checkTerms(t, s, a)
		if b := Terms(s); !slices.Equal(a, b) {
			t.Fatalf("Terms(%q) not deterministic: %q then %q", s, a, b)
		}
		text := string(AppendTermsText(nil, s))
		if want := strings.Join(a, " "); strings.TrimSuffix(text, " ") != want {
			t.Fatalf("AppendTermsText(%q) = %q, want %q", s, text, want)
		}
		q := QueryTerms(s)
		checkTerms(t, s, q)
	})
}

func BenchmarkTerms(b *testing.B) {
	src := strings.Repeat("func (s *HTTPServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {\n\tif err := s.handle_request(r); err != nil { return }\n}\n", 200)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	var buf []byte
	for b.Loop() {
		buf = AppendTermsText(buf[:0], src)
	}
}

func TestTermsText(t *testing.T) {
	for _, s := range []string{"", "  ", "maxFileBytes max_file_bytes", "HTTPServer.ServeHTTP(w, r) // x"} {
		if got, want := TermsText(s), strings.Join(Terms(s), " "); got != want {
			t.Errorf("TermsText(%q) = %q, want %q", s, got, want)
		}
	}
}
