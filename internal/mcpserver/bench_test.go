package mcpserver

import (
	"context"
	"testing"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkContext compares the context tool over an in-memory MCP
// session with the facade call it wraps: the difference is the server's
// cost per request (JSON-RPC, schema validation, opening the project).
func BenchmarkContext(b *testing.B) {
	dir := testProject(b)
	args := map[string]any{"target": "TASK-042", "budget": 600}
	b.Run("mcp", func(b *testing.B) {
		_, cs := connectB(b, dir)
		for b.Loop() {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "context", Arguments: args})
			if err != nil || res.IsError {
				b.Fatal(err, res)
			}
		}
	})
	b.Run("facade", func(b *testing.B) {
		for b.Loop() {
			p, err := app.Open(dir, "")
			if err != nil {
				b.Fatal(err)
			}
			if _, err := p.Context(context.Background(), "TASK-042", app.Request{Budget: 600}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func connectB(b *testing.B, dir string) (*Server, *mcp.ClientSession) {
	s, err := New(Options{Dir: dir, ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(context.Background(), st, nil)
	if err != nil {
		b.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close(); ss.Wait() })
	return s, cs
}
