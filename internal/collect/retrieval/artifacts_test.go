package retrieval

import (
	"fmt"
	"testing"
	"testing/fstest"

	"github.com/ctxpack/ctxpack/internal/artifact"
)

func artifactSet(t *testing.T, files map[string]string) *artifact.Set {
	t.Helper()
	fsys := fstest.MapFS{}
	for p, s := range files {
		fsys[p] = &fstest.MapFile{Data: []byte(s)}
	}
	set, err := artifact.Load(fsys)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

func decision(id, status, body string) string {
	return fmt.Sprintf("---\nid: %s\ntitle: %s\nstatus: %s\n---\n%s\n", id, id, status, body)
}

func TestArtifacts(t *testing.T) {
	files := map[string]string{
		".ctxpack/system/identity.md":            "---\nproject: acme\n---\nInvoices and rounding.\n",
		".ctxpack/system/rationale/DEC-A-001.md": decision("DEC-A-001", "current", "Invoice totals use half-even rounding."),
		".ctxpack/system/rationale/DEC-A-002.md": decision("DEC-A-002", "superseded", "Invoice rounding was half-up, rounding rounding."),
		".ctxpack/system/rationale/DEC-A-003.md": decision("DEC-A-003", "current", "Queue the PDF jobs."),
	}
	for i := range 8 {
		id := fmt.Sprintf("DEC-B-%03d", i)
		files[".ctxpack/system/rationale/"+id+".md"] = decision(id, "current", "The invoice is rendered.")
	}
	set := artifactSet(t, files)
	parts := Artifacts(set, "what decides invoice rounding", 0.8, DefaultTiers())
	if len(parts) == 0 || parts[0].Key != "DEC-A-001" {
		t.Fatalf("parts = %v, want DEC-A-001 first", parts)
	}
	p := parts[0]
	if p.Source != "artifact" || p.Type != "decision" || p.Score != 0.8 || p.Bucket != "primary" || len(p.Via) != 1 || p.Via[0] != "matched: invoice, rounding" {
		t.Errorf("best part = %+v; want a decision scored 0.8 (the best code's relevance) in primary, matched: invoice, rounding", p)
	}
	if len(parts) > MaxArtifacts {
		t.Errorf("%d parts, want at most %d", len(parts), MaxArtifacts)
	}
	for _, p := range parts {
		switch p.Key {
		case "DEC-A-002", "DEC-A-003", "identity":
			t.Errorf("part %s: the superseded, the unmatched and the identity are left out", p.Key)
		}
		if p.Score < ArtifactMargin*0.8-1e-9 {
			t.Errorf("part %s scores %v, below the margin of the best", p.Key, p.Score)
		}
	}
	if none := Artifacts(set, "quantize decimal", 0.8, DefaultTiers()); len(none) != 0 {
		t.Errorf("a query no artifact matches brought %d parts", len(none))
	}
	if StateRoot("sha256:x", set) == StateRoot("sha256:x", artifactSet(t, map[string]string{".ctxpack/system/rationale/DEC-A-001.md": decision("DEC-A-001", "current", "changed")})) {
		t.Error("the state root does not change with the artifacts")
	}
}
