package retrieval

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/secrets"
)

// longFunc is a Python function of n body lines, where line hot (1-based
// in the function) and the two after it mention the cookie's samesite
// attribute.
func longFunc(n, hot int) string {
	var b strings.Builder
	b.WriteString("def parse_cookie(\n    raw,\n    strict=False,\n):\n")
	for i := 5; i <= n; i++ {
		switch {
		case i >= hot && i < hot+3:
			fmt.Fprintf(&b, "    samesite_%d = attrs.get('samesite')\n", i)
		default:
			fmt.Fprintf(&b, "    value_%d = raw[%d]\n", i, i)
		}
	}
	return b.String()
}

func TestWindow(t *testing.T) {
	body := longFunc(120, 70)
	c := chunkView{path: "cookies.py", start: 101, terms: []string{"samesite", "cookie"}}
	text, spans := window(c, body)
	if text == "" {
		t.Fatal("no window for a 120-line chunk that matched")
	}
	// The signature (4 lines: up to where the brackets close), then 30
	// lines holding lines 70-72 of the chunk, in file lines.
	if len(spans) != 2 || spans[0] != [2]int{101, 104} {
		t.Fatalf("spans %v, want the signature 101-104 first", spans)
	}
	if lo, hi := spans[1][0], spans[1][1]; hi-lo+1 != windowLines || lo > 170 || hi < 172 {
		t.Fatalf("window %v does not hold file lines 170-172 in %d lines", spans[1], windowLines)
	}
	for _, want := range []string{"def parse_cookie(\n", "samesite_70", "samesite_72", "    # … ", " lines elided\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("window lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "value_20 ") {
		t.Errorf("window shows a line far from the matches:\n%s", text)
	}
	// Every line it shows is the chunk's own.
	lines := strings.SplitAfter(body, "\n")
	for _, s := range spans {
		for l := s[0]; l <= s[1]; l++ {
			if !strings.Contains(text, lines[l-c.start]) {
				t.Fatalf("line %d %q is not shown as it is", l, lines[l-c.start])
			}
		}
	}

	for _, tt := range []struct {
		name string
		c    chunkView
		body string
	}{
		{"short chunk", c, longFunc(30, 10)},
		{"no terms", chunkView{path: "cookies.py", start: 1}, body},
		{"no line matches", chunkView{path: "cookies.py", start: 1, terms: []string{"proxy"}}, body},
	} {
		if text, _ := window(tt.c, tt.body); text != "" {
			t.Errorf("%s: a window where none is wanted:\n%s", tt.name, text)
		}
	}
}

func TestSignatureLines(t *testing.T) {
	for _, tt := range []struct {
		name     string
		src      string
		from, to int
	}{
		{"python, brackets over lines", "def f(\n    a,\n):\n    return a\n", 0, 3},
		{"go doc comment elided", "// F does.\n// More.\nfunc F(a int) error {\n\treturn nil\n}\n", 2, 3},
		{"decorators kept", "@app.route('/')\n@cached\ndef index():\n    pass\n", 0, 3},
		{"rust attribute", "#[inline]\nfn f() {\n}\n", 0, 2},
		{"only comments", "# a\n# b\n", 0, 1},
	} {
		lines := strings.SplitAfter(tt.src, "\n")
		from, to := signatureLines(lines[:len(lines)-1])
		if from != tt.from || to != tt.to {
			t.Errorf("%s: signature lines %d-%d, want %d-%d", tt.name, from, to, tt.from, tt.to)
		}
	}
}

func TestRedactCut(t *testing.T) {
	// The file: "aaaa SECRETSECRET bbbb"; the secret is bytes 5-17.
	found := []secrets.Finding{{Rule: "private-key", Start: 5, End: 17}}
	for _, tt := range []struct {
		name  string
		body  string
		start int
		want  string
		n     int
	}{
		{"cut at its start", "aaaa SECRET", 0, "aaaa " + secrets.Marker("private-key"), 1},
		{"cut at its end", "SECRET bbbb", 11, secrets.Marker("private-key") + " bbbb", 1},
		{"whole inside: the chunk's own scan finds it", "aaaa SECRETSECRET bbbb", 0, "aaaa SECRETSECRET bbbb", 0},
		{"outside", " bbbb", 17, " bbbb", 0},
	} {
		got, n := redactCut(tt.body, tt.start, found)
		if got != tt.want || n != tt.n {
			t.Errorf("%s: redactCut = %q, %d; want %q, %d", tt.name, got, n, tt.want, tt.n)
		}
	}
}
