package cli

import (
	"testing"
	"time"

	"github.com/ctxpack/ctxpack/internal/index"
)

// TestEmbedLine: the chunks given a vector, not the vectors made (chunks
// with the same text share one), and how many of the chunks have one.
func TestEmbedLine(t *testing.T) {
	tests := []struct {
		es   index.EmbedStats
		want string
	}{
		{index.EmbedStats{Embedder: "e", Chunks: 10, Embedded: 3, Covered: 4, Missing: 2, Stale: 2, Deleted: 1},
			"embedded 4 of 10 chunks with e in 1.23s (3 new vectors, 1 stale vectors deleted); 8 of 10 chunks have vectors"},
		{index.EmbedStats{Embedder: "e", Chunks: 10},
			"embedded 0 of 10 chunks with e in 1.23s (0 new vectors, 0 stale vectors deleted); 10 of 10 chunks have vectors"},
	}
	for _, tt := range tests {
		if got := embedLine(&tt.es, 1234*time.Millisecond); got != tt.want {
			t.Errorf("embedLine(%+v)\n got %q\nwant %q", tt.es, got, tt.want)
		}
	}
}
