package render

import (
	"encoding/json"
	"encoding/xml"
	"flag"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden sections of testdata/*.txtar")

// TestGolden renders the blocks in each testdata file's "input" section in
// every format and compares with the section named after the format.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files in testdata (%v)", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var blocks []Block
			meta := ""
			for _, f := range ar.Files {
				if f.Name == "meta" {
					meta = strings.TrimSpace(string(f.Data))
				}
				if f.Name == "input" {
					if err := json.Unmarshal(f.Data, &blocks); err != nil {
						t.Fatalf("input: %v", err)
					}
				}
			}
			if blocks == nil {
				t.Fatal("no input section")
			}
			changed := false
			for _, format := range []Format{Text, Markdown, Doc, XML} {
				got := Content(format, meta, blocks)
				idx := -1
				for i, f := range ar.Files {
					if f.Name == string(format) {
						idx = i
					}
				}
				if idx < 0 {
					if !*update {
						t.Errorf("no %s section", format)
						continue
					}
					ar.Files = append(ar.Files, txtar.File{Name: string(format)})
					idx = len(ar.Files) - 1
				}
				want := string(ar.Files[idx].Data)
				if got != want {
					if *update {
						ar.Files[idx].Data = []byte(got)
						changed = true
						continue
					}
					t.Errorf("%s (-want +got):\n%s", format, cmp.Diff(want, got))
				}
			}
			if changed {
				if err := writeFile(file, txtar.Format(ar)); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func TestSegmentsEndInNewlineAndStartWithMarker(t *testing.T) {
	b := Block{Type: "code", Label: "a.go:1-2", Path: "a.go", Lines: [2]int{1, 2}, Doc: "a.go", Lang: "go", Text: "  x := 1"}
	for _, f := range Formats() {
		seg := Segment(f, b, Block{})
		if !strings.HasSuffix(seg, "\n") {
			t.Errorf("%s: segment %q does not end in a newline", f, seg)
		}
		if seg[0] == ' ' || seg[0] == '\n' || seg[0] == '\t' {
			t.Errorf("%s: segment %q starts with whitespace", f, seg)
		}
	}
}

func TestParseFormat(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Format
		err  bool
	}{
		{"", Text, false}, {"text", Text, false}, {"md", Markdown, false}, {"markdown", Markdown, false},
		{"doc", Doc, false}, {"xml", XML, false}, {"json", JSON, false}, {"yaml", "", true}, {"TEXT", "", true},
	} {
		got, err := ParseFormat(tc.in)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("ParseFormat(%q) = %q, %v", tc.in, got, err)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "render: ") {
			t.Errorf("error %q does not start with the package name", err)
		}
	}
}

func TestFenceLongerThanBackticksInText(t *testing.T) {
	got := Body(Markdown, Block{Type: "doc", Label: "x", Lang: "go", Text: "a ```` b"})
	if !strings.Contains(got, "`````go\n") {
		t.Errorf("fence not longer than the text's backtick run:\n%s", got)
	}
}

// TestMetadataComment: whatever the metadata holds, the xml format's
// comment is well-formed XML, and neither comment ends early.
func TestMetadataComment(t *testing.T) {
	for _, meta := range []string{"a--b", "a---b", "target=x--->y", "a-", "----", "-", "a\n--\nb"} {
		doc := Open(XML, meta) + Close(XML)
		d := xml.NewDecoder(strings.NewReader(doc))
		var comments []string
		for {
			tok, err := d.Token()
			if err != nil {
				if err != io.EOF {
					t.Errorf("meta %q: %q is not XML: %v", meta, doc, err)
				}
				break
			}
			if c, ok := tok.(xml.Comment); ok {
				comments = append(comments, string(c))
			}
		}
		if len(comments) != 1 {
			t.Errorf("meta %q: %q has comments %q, want one", meta, doc, comments)
		}
		md := Open(Markdown, meta)
		if i := strings.Index(md, "-->"); i != len(md)-len("-->\n\n") {
			t.Errorf("meta %q: the markdown comment %q ends early", meta, md)
		}
	}
}

// An mdctx provenance comment names the path as it is, percent-encoded:
// "--" and "-->" are encoded, not spaced out into another path.
func TestMDCtxProvenancePath(t *testing.T) {
	got := Body(MDCtx, Block{Path: "docs/a--b c-->.md", Lines: [2]int{1, 2}, CID: "sha256:00", Text: "x\n"})
	want := "## Evidence: docs/a--b c-->.md\n<!-- source_uri=file://docs/a-%2Db%20c-%2D%3E.md; cid=sha256:00; span=lines=1:2 -->\n\nx\n\n"
	if got != want {
		t.Errorf("Body =\n%q\nwant\n%q", got, want)
	}
}
