package index

import (
	"path/filepath"
	"testing"
)

// TestFirstBuildMergesSegments checks that a first build leaves the
// full-text index in one segment (see sync), which a search of many terms
// seeks once a term rather than once a segment.
func TestFirstBuildMergesSegments(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, genProject(7, 4000))
	db := filepath.Join(t.TempDir(), "index.db")
	ix, _ := build(t, dir, db, Options{})
	ix.Close()
	var segments int
	if err := openDB(t, db).QueryRow(`SELECT count(DISTINCT segid) FROM chunk_terms_idx`).Scan(&segments); err != nil {
		t.Fatal(err)
	}
	if segments != 1 {
		t.Errorf("a first build left %d segments, want 1", segments)
	}
}
