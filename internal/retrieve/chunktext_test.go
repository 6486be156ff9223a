package retrieve

import (
	"errors"
	"testing"

	"github.com/ctxpack/ctxpack/internal/index"
	"github.com/ctxpack/ctxpack/internal/project"
)

func TestChunkText(t *testing.T) {
	c := Chunk{Hit: index.Hit{Start: 2, End: 5, CID: project.ContentID("cde")}}
	for _, tt := range []struct {
		text, want string
		err        error
	}{
		{"abcdefg", "cde", nil},
		{"abXdefg", "", ErrChunkChanged}, // another text at the offsets
		{"abcd", "", ErrChunkChanged},    // shorter than the chunk's end
	} {
		got, err := ChunkText(c, tt.text)
		if got != tt.want || !errors.Is(err, tt.err) {
			t.Errorf("ChunkText(%q) = %q, %v; want %q, %v", tt.text, got, err, tt.want, tt.err)
		}
	}
	c.Start, c.End = 5, 2
	if _, err := ChunkText(c, "abcdefg"); !errors.Is(err, ErrChunkChanged) {
		t.Errorf("start after end: %v", err)
	}
}
