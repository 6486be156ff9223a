package evidence

import (
	"reflect"
	"strings"
	"testing"
)

const testCID = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

func TestProvenanceRoundTrip(t *testing.T) {
	tests := []struct {
		p    Provenance
		line string
	}{
		{Provenance{URI: "file://core/flow.sh", CID: testCID, Span: "lines=100:200", Tags: []string{"flow", "manager"}},
			"<!-- source_uri=file://core/flow.sh; cid=" + testCID + "; span=lines=100:200; tags=flow,manager -->"},
		{Provenance{URI: "file://a%20b%3B.go", CID: testCID, Span: "file"},
			"<!-- source_uri=file://a%20b%3B.go; cid=" + testCID + "; span=file -->"},
		{Provenance{URI: "inline:", CID: testCID},
			"<!-- source_uri=inline:; cid=" + testCID + " -->"},
	}
	for _, tt := range tests {
		if got := tt.p.Comment(); got != tt.line {
			t.Errorf("Comment() = %q, want %q", got, tt.line)
		}
		got, ok, err := ParseProvenance(tt.line)
		if !ok || err != nil || !reflect.DeepEqual(got, tt.p) {
			t.Errorf("ParseProvenance(%q) = %+v, %v, %v", tt.line, got, ok, err)
		}
	}
	// "--" may not stand in a comment: the second "-" is encoded.
	if got := FileURI("dir/a b;c-->.go"); got != "file://dir/a%20b%3Bc-%2D%3E.go" {
		t.Errorf("FileURI = %q", got)
	}
	if p, ok := FilePath(FileURI("dir/a b;c-->.go")); !ok || p != "dir/a b;c-->.go" {
		t.Errorf("FilePath = %q, %v", p, ok)
	}
}

func TestParseProvenanceErrors(t *testing.T) {
	for line, msg := range map[string]string{
		"<!-- source_uri=file://a; cid=sha256:12 -->":                     "not sha256: and 64 hex digits",
		"<!-- source_uri=file://a; cid=" + testCID:                        `does not end with " -->"`,
		"<!-- source_uri=file://a -->":                                    "has no cid",
		"<!-- source_uri=file://a; cid=" + testCID + "; color=red -->":    `unknown provenance field "color"`,
		"<!-- source_uri=file://a; span=file; cid=" + testCID + " -->":    "out of order",
		"<!-- source_uri=file://a; cid=" + testCID + "; span=lines=9 -->": "evidence: ",
		"<!-- source_uri=file://a; cid=" + testCID + "; tags=a b -->":     "provenance tag",
		"<!-- source_uri=; cid=" + testCID + " -->":                       "source_uri is empty",
		"<!-- source_uri=file://a; cid=" + testCID + "; nokey -->":        "has no value",
	} {
		_, ok, err := ParseProvenance(line)
		if !ok || err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("ParseProvenance(%q) = %v, %v; want an error with %q", line, ok, err, msg)
		}
	}
	for _, line := range []string{"", "## Evidence: a", "<!-- a comment -->", "```go"} {
		if _, ok, err := ParseProvenance(line); ok || err != nil {
			t.Errorf("ParseProvenance(%q) = %v, %v; want not a provenance comment", line, ok, err)
		}
	}
}

func TestProvenanceSelector(t *testing.T) {
	p := Provenance{URI: FileURI("core/flow.sh"), CID: testCID, Span: "lines=100:", Tags: []string{"a"}}
	s, err := p.Selector()
	if err != nil || s.String() != "core/flow.sh::100#a" {
		t.Errorf("Selector() = %v, %v", s, err)
	}
	for _, bad := range []Provenance{
		{URI: "inline:", CID: testCID},
		{URI: FileURI("../x"), CID: testCID, Span: "file"},
		{URI: "file://%zz", CID: testCID},
	} {
		if _, err := bad.Selector(); err == nil {
			t.Errorf("Selector() of %+v: no error", bad)
		}
	}
}

func FuzzParseProvenance(f *testing.F) {
	for _, s := range []string{
		"<!-- source_uri=file://core/flow.sh; cid=" + testCID + "; span=lines=100:200; tags=flow,manager -->",
		"<!-- source_uri=inline:; cid=" + testCID + " -->",
		"<!-- source_uri=file://a%20b; cid=" + testCID + "; span=bytes=1:9 -->",
		"<!-- source_uri=x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		p, ok, err := ParseProvenance(line)
		if !ok || err != nil {
			return
		}
		// What parses prints back to a comment that parses to the same.
		again, ok, err := ParseProvenance(p.Comment())
		if !ok || err != nil || !reflect.DeepEqual(again, p) {
			t.Fatalf("ParseProvenance(%q) = %+v; its Comment %q parses to %+v, %v, %v", line, p, p.Comment(), again, ok, err)
		}
		_, _ = p.Selector() // must not panic
	})
}
