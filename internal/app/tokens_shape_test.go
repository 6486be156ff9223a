package app

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestTokenReportShape(t *testing.T) {
	report := func() *TokenReport {
		return &TokenReport{Files: []TokenCount{
			{Path: "a/b/c.go", Tokens: 40},
			{Path: "a/b/d.go", Tokens: 3},
			{Path: "a/e.md", Tokens: 40},
			{Path: "f.txt", Tokens: 1},
			{Path: `"a/odd\nname"`, Tokens: 2},
		}, Total: 86}
	}
	tests := []struct {
		name    string
		shape   TokenShape
		want    string // the views as JSON
		wantErr string
	}{
		{name: "top", shape: TokenShape{Top: 2},
			want: `{"top_files":[{"path":"a/b/c.go","tokens":40},{"path":"a/e.md","tokens":40}],"top_folders":[{"path":"a/","tokens":85,"files":4},{"path":"a/b/","tokens":43,"files":2}]}`},
		{name: "top more than there are", shape: TokenShape{Top: 9},
			want: `{"top_files":[{"path":"a/b/c.go","tokens":40},{"path":"a/e.md","tokens":40},{"path":"a/b/d.go","tokens":3},{"path":"\"a/odd\\nname\"","tokens":2},{"path":"f.txt","tokens":1}],"top_folders":[{"path":"a/","tokens":85,"files":4},{"path":"a/b/","tokens":43,"files":2}]}`},
		{name: "tree", shape: TokenShape{Tree: true},
			want: `{"tree":{"name":".","tokens":86,"files":5,"children":[{"name":"a/","tokens":85,"files":4,"children":[{"name":"b/","tokens":43,"files":2,"children":[{"name":"c.go","tokens":40},{"name":"d.go","tokens":3}]},{"name":"e.md","tokens":40},{"name":"\"odd\\nname\"","tokens":2}]},{"name":"f.txt","tokens":1}]}}`},
		{name: "tree with a minimum", shape: TokenShape{Tree: true, MinTokens: 40},
			want: `{"tree":{"name":".","tokens":86,"files":5,"children":[{"name":"a/","tokens":85,"files":4,"children":[{"name":"b/","tokens":43,"files":2,"children":[{"name":"c.go","tokens":40}],"hidden":{"entries":1,"tokens":3}},{"name":"e.md","tokens":40}],"hidden":{"entries":1,"tokens":2}}],"hidden":{"entries":1,"tokens":1}}}`},
		{name: "negative top", shape: TokenShape{Top: -1}, wantErr: "at least 1"},
		{name: "negative minimum", shape: TokenShape{Tree: true, MinTokens: -1}, wantErr: "at least 0"},
		{name: "minimum without tree", shape: TokenShape{MinTokens: 5}, wantErr: "ask for the tree too"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := report()
			err := r.Shape(tt.shape)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Shape(%+v) = %v, want an error with %q", tt.shape, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.Marshal(struct {
				TopFiles   []TokenCount  `json:"top_files,omitempty"`
				TopFolders []TokenFolder `json:"top_folders,omitempty"`
				Tree       *TokenNode    `json:"tree,omitempty"`
			}{r.TopFiles, r.TopFolders, r.Tree})
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("Shape(%+v):\ngot  %s\nwant %s", tt.shape, got, tt.want)
			}
		})
	}
}
