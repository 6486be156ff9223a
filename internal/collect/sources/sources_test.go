package sources

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ctxpack/ctxpack/internal/artifact"
	"github.com/ctxpack/ctxpack/internal/index"
	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/render"
	"github.com/ctxpack/ctxpack/internal/retrieve"
	"github.com/ctxpack/ctxpack/internal/sqlitedb"
	"github.com/ctxpack/ctxpack/internal/store"
	"github.com/ctxpack/ctxpack/internal/tokenizer"
)

// fixture is a store in a temporary folder, and an Env over it whose code
// search and artifacts are the test's.
type fixture struct {
	dir  string
	path string // the store's
	st   *store.Store
	env  Env
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	dir := t.TempDir()
	f := &fixture{dir: dir, path: filepath.Join(dir, "sources.db")}
	st, err := store.Open(f.path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f.st = st
	f.env = Env{
		Root:     dir,
		Settings: DefaultSettings(),
		OpenStore: func(readOnly bool) (*store.Store, error) {
			return store.Open(f.path, store.Options{ReadOnly: readOnly})
		},
	}
	return f
}

func (f *fixture) memory(t *testing.T, content string, importance float64) int64 {
	t.Helper()
	m, err := f.st.AddMemory(context.Background(), store.Memory{Content: content, Category: "decision", Importance: importance, Created: 1_700_000_000})
	if err != nil {
		t.Fatal(err)
	}
	return m.ID
}

func (f *fixture) experience(t *testing.T, e store.Experience) int64 {
	t.Helper()
	if e.Domain == "" {
		e.Domain = "debugging"
	}
	if e.Outcome == "" {
		e.Outcome = store.OutcomeConfirmed
	}
	if e.Created == 0 {
		e.Created = 1_700_000_000
	}
	x, err := f.st.AddExperience(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	return x.ID
}

func (f *fixture) value(t *testing.T, text string, from int64) int64 {
	t.Helper()
	v, err := f.st.AddValue(context.Background(), store.Value{Text: text, Axis: store.AxisFull, Experience: from, Created: 1_700_000_000})
	if err != nil {
		t.Fatal(err)
	}
	return v.ID
}

func mustTok(t *testing.T) tokenizer.Tokenizer {
	t.Helper()
	tok, err := tokenizer.Get("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// assemble fits a collection as the facade does.
func assemble(t *testing.T, c *Collection, o pack.Options) *pack.Result {
	t.Helper()
	o.Tokenizer = mustTok(t)
	if o.Budget == 0 {
		o.Budget = 4000
	}
	o.Overflow = pack.Drop
	o.Policy.ItemCap = 0.25
	c.Options(&o)
	res, err := pack.Assemble(c.Parts, o)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func keys(parts []pack.Part) []string {
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = p.Key
	}
	return out
}

func TestParse(t *testing.T) {
	for _, tt := range []struct {
		list          []string
		want          []string
		unknown, hint string
	}{
		{[]string{"commits, Memories", "code,memories"}, []string{Memories, Code, Commits}, "", ""},
		{[]string{"artifacts,values,experiences"}, []string{Artifacts, Experiences, Values}, "", ""},
		{[]string{" , "}, nil, "", ""},
		{nil, nil, "", ""},
		{[]string{"memories,memorys"}, nil, "memorys", "; did you mean memories?"},
	} {
		got, unknown := Parse(tt.list)
		if !slices.Equal(got, tt.want) || unknown != tt.unknown {
			t.Errorf("Parse(%q) = %q, %q; want %q, %q", tt.list, got, unknown, tt.want, tt.unknown)
		}
		if unknown != "" && !strings.HasSuffix(Unknown(unknown), tt.hint) {
			t.Errorf("Unknown(%q) = %q", unknown, Unknown(unknown))
		}
	}
	if got, want := Unknown("zzz"), `unknown source "zzz" (valid: artifacts, memories, code, experiences, values, commits)`; got != want {
		t.Errorf("Unknown = %q, want %q", got, want)
	}
	if !slices.Equal(Names(), []string{Artifacts, Memories, Code, Experiences, Values, Commits}) || slices.Contains(Defaults(), Artifacts) {
		t.Errorf("Names %v, Defaults %v", Names(), Defaults())
	}
}

func TestConfigApply(t *testing.T) {
	n := func(v int) *int { return &v }
	x := func(v float64) *float64 { return &v }
	type pm = struct {
		Limit  *int `yaml:"limit"`
		Values *int `yaml:"values"`
	}
	for _, tt := range []struct {
		name string
		c    Config
		want string // the key and message of the error; "" for none
	}{
		{"valid", Config{Weights: map[string]float64{"memories": 2}, Limit: n(30), Similarity: x(0.5), Premortem: &pm{Limit: n(3), Values: n(2)}}, ""},
		{"unknown weight", Config{Weights: map[string]float64{"memorys": 2}}, `weights.memorys names no source: unknown source "memorys"`},
		{"zero weight", Config{Weights: map[string]float64{"code": 0}}, "weights.code must be a number above 0 and at most 1000"},
		{"limit", Config{Limit: n(0)}, "limit must be a whole number from 1 to 1000"},
		{"similarity", Config{Similarity: x(1.5)}, "similarity must be a number above 0 and at most 1"},
		{"premortem limit", Config{Premortem: &pm{Limit: n(1001)}}, "premortem.limit must be a whole number from 1 to 1000"},
		{"premortem values", Config{Premortem: &pm{Values: n(-1)}}, "premortem.values must be a whole number from 1 to 1000"},
	} {
		s := DefaultSettings()
		err := tt.c.Apply(&s, func(key, must string) error { return errors.New(key + " " + must) })
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.want)):
			t.Errorf("%s: %v; want %q", tt.name, err, tt.want)
		}
		if tt.name == "valid" && (s.Weights["memories"] != 2 || s.Weights["code"] != 2 || s.Limit != 30 || s.Similarity != 0.5 || s.PremortemLimit != 3 || s.PremortemValues != 2) {
			t.Errorf("valid: settings %+v", s)
		}
	}
	for key, want := range map[string]bool{"weights.code": true, "weights": false, "weights.a.b": false, "limit": false} {
		if WeightKey(key) != want {
			t.Errorf("WeightKey(%q) = %v", key, !want)
		}
	}
}

// searchAll: a search that panics fails alone, and the store's state root
// is read beside the searches.
func TestSearchAll(t *testing.T) {
	f := newFixture(t)
	f.memory(t, "Invoice totals round half-even.", 0.5)
	ctx := context.Background()
	want, err := f.st.StateRoot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	results, root, err := searchAll(ctx, f.st, []string{"first", "broken", "third"}, func(i int) result {
		if i == 1 {
			var items []*item
			_ = items[3] // panics
		}
		return result{items: []*item{{key: fmt.Sprint(i)}}}
	})
	if err != nil || root != want {
		t.Fatalf("root %s, %v; want %s", root, err, want)
	}
	if len(results) != 3 || results[1].err == nil || !strings.HasPrefix(results[1].err.Error(), "broken: internal error: ") {
		t.Fatalf("results %+v: want the second failed", results)
	}
	for _, i := range []int{0, 2} {
		if r := results[i]; r.err != nil || len(r.items) != 1 || r.items[0].key != fmt.Sprint(i) {
			t.Errorf("result %d: %+v", i, r)
		}
	}
	if _, root, _ := searchAll(ctx, nil, nil, nil); root != "" {
		t.Errorf("no store gave the root %s", root)
	}
}

// The store's sources: items in the seed's format, ranked within their
// source, in the bucket and section of their source, with what dedup
// needs to know of them; the commits' sync failing outside git is a
// warning; a store that is missing is not created when only read.
func TestCollectStore(t *testing.T) {
	f := newFixture(t)
	gold := f.experience(t, store.Experience{Goal: "make the invoice total right", Hypothesis: "rounding twice", Action: "round once",
		Prediction: "totals match", Result: "they match", Lesson: "round invoice totals once", Confidence: store.TierGold, Iterations: 2})
	f.experience(t, store.Experience{Goal: "speed up invoice rendering", Hypothesis: "templates", Action: "cache", Prediction: "faster",
		Result: "slower", Outcome: store.OutcomeFalsified, Confidence: store.TierBronze, Created: 1_690_000_000})
	f.memory(t, "Invoice totals round half-even, once, at the end.", 0.9)
	f.memory(t, "The invoice PDF shows the currency code.", 0.1)
	f.value(t, "Round invoice money once, at the end.", gold)
	ctx := context.Background()
	req := Request{Query: "invoice total", Sources: []string{Memories, Experiences, Values, Commits}, Limit: 20, Level: pack.Full}
	c, err := Collect(ctx, f.env, req)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(c.Warnings, func(w string) bool { return strings.HasPrefix(w, "commits: ") }) {
		t.Errorf("warnings %q: want the commits' sync outside git", c.Warnings)
	}
	if len(c.Parts) != 5 || c.StateRoot == "" {
		t.Fatalf("parts %v, state root %q", keys(c.Parts), c.StateRoot)
	}
	for _, p := range c.Parts {
		src, _ := lookup(p.Bucket)
		if p.Source != src.part || p.Heading != src.title || p.Doc != p.Key || p.Label != p.Key || p.Item == nil || p.Text[pack.Full] != p.Item.Text() {
			t.Errorf("%s: %+v", p.Key, p)
		}
		if p.Score <= 0 || p.Score > 1 || p.Components["match"] == 0 {
			t.Errorf("%s: relevance %g, components %v", p.Key, p.Score, p.Components)
		}
		switch p.Bucket {
		case Memories:
			if p.Dedup.Text != strings.TrimPrefix(strings.Split(p.Text[pack.Full], "\n")[0], "**Memory**: ") {
				t.Errorf("%s: dedup text %q", p.Key, p.Dedup.Text)
			}
		case Values:
			if p.Dedup.Origin != key("experience", gold, "") {
				t.Errorf("%s: origin %q", p.Key, p.Dedup.Origin)
			}
		}
	}
	if c.Parts[0].Key != "memory:1" || c.Parts[0].Components["importance"] != 0.95 {
		t.Errorf("first %s %v: want the important memory first", c.Parts[0].Key, c.Parts[0].Components)
	}
	// The value derived from the gold experience repeats it: dropped.
	res := assemble(t, c, pack.Options{Format: render.Markdown})
	if !slices.ContainsFunc(res.Plan.Dropped, func(d render.Dropped) bool {
		return strings.HasSuffix(d.Reason, "the same experience ("+key("experience", gold, "")+")")
	}) {
		t.Errorf("dropped %+v: want the value of the experience", res.Plan.Dropped)
	}
	if !strings.HasPrefix(res.Plan.Content, "# Context\n\n## Memories\n\n**Memory**: ") || !strings.HasSuffix(res.Plan.Content, "*4 items from 2 sources*\n") {
		t.Errorf("content:\n%s", res.Plan.Content)
	}
	if len(res.Plan.Shares) != 4 || res.Plan.Shares[3].Source != Commits || res.Plan.Shares[3].Budget != 0 {
		t.Errorf("shares %+v", res.Plan.Shares)
	}

	// Only read, a store that is not there stays so.
	f.env.OpenStore = func(readOnly bool) (*store.Store, error) {
		return store.Open(filepath.Join(f.dir, "none.db"), store.Options{ReadOnly: readOnly})
	}
	req.Sources, req.NoUpdate = []string{Memories, Commits}, true
	if c, err = Collect(ctx, f.env, req); err != nil || len(c.Parts) != 0 || len(c.Warnings) != 0 {
		t.Fatalf("missing store: %v, %v, %q", err, keys(c.Parts), c.Warnings)
	}
	if _, err := os.Stat(filepath.Join(f.dir, "none.db")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the store was created: %v", err)
	}
	// A store that cannot be opened fails the collection.
	f.env.OpenStore = func(bool) (*store.Store, error) { return nil, errors.New("store: broken") }
	if _, err := Collect(ctx, f.env, req); err == nil {
		t.Error("a store that cannot be opened did not fail")
	}
	// A store whose searches fail (here its terms are damaged; on a
	// server, the database went away after the store was opened) leaves
	// each source out with a warning, and says which failed.
	db, err := sqlitedb.Open(f.path, sqlitedb.Options{MaxOpenConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE terms SET tf = 'damaged'`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	f.env.OpenStore = func(readOnly bool) (*store.Store, error) {
		return store.Open(f.path, store.Options{ReadOnly: readOnly})
	}
	req.Sources = []string{Memories, Values}
	c, err = Collect(ctx, f.env, req)
	if err != nil || len(c.Parts) != 0 || len(c.Failed) != 2 || len(c.Warnings) != 2 ||
		!strings.HasPrefix(c.Failed[0].Error(), "the memories source: ") || !strings.HasPrefix(c.Warnings[1], "sources: values skipped: ") {
		t.Errorf("failed searches: %v, parts %v, failed %v, warnings %q", err, keys(c.Parts), c.Failed, c.Warnings)
	}
}

// The depths: summary shows an item's brief form, meta its heading and
// metadata alone; an item has no content id of its own below full.
func TestCollectLevels(t *testing.T) {
	f := newFixture(t)
	f.memory(t, "Invoice totals round half-even.\n\nThe cycle's rate, fixed at its start.", 0.5)
	ctx := context.Background()
	for level, want := range map[pack.Level]string{
		pack.Full:    "**Memory**: Invoice totals round half-even.\n\nThe cycle's rate, fixed at its start.\n*Category",
		pack.Summary: "**Memory**: Invoice totals round half-even.\n*Category",
		pack.Meta:    "**Memory**: \n*Category",
	} {
		c, err := Collect(ctx, f.env, Request{Query: "invoice", Sources: []string{Memories}, Limit: 5, Level: level, NoUpdate: true})
		if err != nil {
			t.Fatal(err)
		}
		if got := c.Parts[0].Text[level]; !strings.HasPrefix(got, want) || c.Parts[0].Dedup.Text != "Invoice totals round half-even.\n\nThe cycle's rate, fixed at its start." {
			t.Errorf("%s: %q, dedup text %q", level, got, c.Parts[0].Dedup.Text)
		}
	}
}

// codeEnv is a code search over files, each one chunk.
func codeEnv(files map[string]string, stale string) CodeSearch {
	return func(ctx context.Context, query string, limit int) (*CodeHits, error) {
		var chunks []retrieve.Chunk
		for i, path := range slices.Sorted(func(yield func(string) bool) {
			for p := range files {
				if !yield(p) {
					return
				}
			}
		}) {
			text := files[path]
			cid := project.ContentID(text)
			if path == stale {
				cid = project.ContentID("what it was")
			}
			chunks = append(chunks, retrieve.Chunk{
				Hit:       index.Hit{Path: path, Seq: 0, Start: 0, End: len(text), StartLine: 1, EndLine: strings.Count(text, "\n"), Kind: "function", Symbol: "F" + fmt.Sprint(i), CID: cid},
				Relevance: 1 - float64(i)/10, Factors: map[string]float64{"file_type": 1},
			})
		}
		read := func(path string) (string, error) {
			if t, ok := files[path]; ok {
				return t, nil
			}
			return "", fs(path)
		}
		return &CodeHits{Chunks: chunks, Read: read, StateRoot: "sha256:index", Warnings: []string{"index: a warning"}}, nil
	}
}

func fs(path string) error { return &os.PathError{Op: "open", Path: path, Err: os.ErrNotExist} }

// The code source: chunks as retrieval ranks them, each in a fence, with
// its content id at full; a stale chunk is left out with a warning; a
// commit of only a shown file is the code item's duplicate.
func TestCollectCode(t *testing.T) {
	f := newFixture(t)
	files := map[string]string{
		"billing/invoice.go": "package billing\n\n// Total rounds once.\nfunc Total() int { return 1 }\n",
		"billing/tax.go":     "package billing\n\nfunc Tax() int { return 2 }\n",
		"billing/old.go":     "package billing\n\nfunc Old() {}\n",
	}
	f.env.Code = codeEnv(files, "billing/old.go")
	ctx := context.Background()
	c, err := Collect(ctx, f.env, Request{Query: "total", Sources: []string{Code}, Limit: 20, Level: pack.Full})
	if err != nil {
		t.Fatal(err)
	}
	if got := keys(c.Parts); !slices.Equal(got, []string{"billing/invoice.go#0", "billing/tax.go#0"}) {
		t.Fatalf("parts %v", got)
	}
	p := c.Parts[0]
	if p.CID != project.ContentID(files["billing/invoice.go"]) || p.Dedup.Shows != "billing/invoice.go" || p.Label != "billing/invoice.go:1-4" ||
		!strings.HasPrefix(p.Text[pack.Full], "**function** `F0` in `billing/invoice.go:1`\n```go\npackage billing") {
		t.Errorf("code part %+v", p)
	}
	if len(c.Dropped) != 1 || c.Dropped[0].Key != "billing/old.go#0" || c.Dropped[0].Reason != "the file changed since it was indexed" {
		t.Errorf("dropped %+v", c.Dropped)
	}
	if !slices.Contains(c.Warnings, "index: a warning") || !slices.Contains(c.Warnings, "code: skipped chunks of billing/old.go: the file changed since it was indexed") {
		t.Errorf("warnings %q", c.Warnings)
	}
	// At depth summary a code item has no content id: the engine makes
	// one of the text shown.
	if c, err = Collect(ctx, f.env, Request{Query: "total", Sources: []string{Code}, Limit: 1, Level: pack.Summary}); err != nil || len(c.Parts) != 1 || c.Parts[0].CID != "" {
		t.Errorf("summary: %v, %+v", err, c.Parts)
	}
	// A search that fails is left out with a warning.
	f.env.Code = func(context.Context, string, int) (*CodeHits, error) { return nil, errors.New("ctxpack: no index") }
	c, err = Collect(ctx, f.env, Request{Query: "total", Sources: []string{Code, Memories}, Limit: 5, Level: pack.Full, NoUpdate: true})
	if err != nil || !slices.Contains(c.Warnings, "sources: code skipped: no index") {
		t.Errorf("%v, warnings %q", err, c.Warnings)
	}
	f.env.Code = nil
	if c, err = Collect(ctx, f.env, Request{Query: "total", Sources: []string{Code}, Limit: 5}); err != nil || len(c.Warnings) != 1 {
		t.Errorf("no code search: %v, %q", err, c.Warnings)
	}
}

// gitRepo makes dir a git repository with commits, each changing files;
// it skips the test when git is not installed.
func gitRepo(t *testing.T, dir string, commits []map[string]string, msgs []string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE=2024-01-02T03:04:05Z", "GIT_COMMITTER_DATE=2024-01-02T03:04:05Z",
			"GIT_AUTHOR_NAME=Ada", "GIT_AUTHOR_EMAIL=ada@example.com", "GIT_COMMITTER_NAME=Ada", "GIT_COMMITTER_EMAIL=ada@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	for i, files := range commits {
		for name, text := range files {
			p := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		git("add", "-A")
		git("commit", "-q", "-m", msgs[i])
	}
}

// The commits source brings the store up to date with the history first;
// a commit that changed only a file a code item shows is its duplicate.
func TestCollectCommits(t *testing.T) {
	f := newFixture(t)
	repo := t.TempDir()
	gitRepo(t, repo, []map[string]string{
		{"billing/invoice.go": "package billing\n\nfunc Total() int { return 1 }\n"},
		{"billing/invoice.go": "package billing\n\nfunc Total() int { return 2 }\n", "billing/tax.go": "package billing\n"},
	}, []string{"invoice total rounds once", "invoice total and tax together"})
	f.env.Root = repo
	f.env.Code = codeEnv(map[string]string{"billing/invoice.go": "package billing\n\nfunc Total() int { return 2 }\n"}, "")
	ctx := context.Background()
	c, err := Collect(ctx, f.env, Request{Query: "invoice total", Sources: []string{Code, Commits}, Limit: 20, Level: pack.Full})
	if err != nil {
		t.Fatal(err)
	}
	var commits []pack.Part
	for _, p := range c.Parts {
		if p.Bucket == Commits {
			commits = append(commits, p)
		}
	}
	if len(commits) != 2 || len(c.Warnings) != 1 {
		t.Fatalf("commits %v, warnings %q", keys(commits), c.Warnings)
	}
	for _, p := range commits {
		if !strings.HasPrefix(p.Text[pack.Full], "**Commit** `") || !strings.Contains(p.Text[pack.Full], " by Ada on 2024-01-02\n") || len(p.Dedup.Names) == 0 || p.Components["recency"] != 1 {
			t.Errorf("%s: %+v", p.Key, p)
		}
	}
	res := assemble(t, c, pack.Options{Format: render.JSON})
	if !slices.ContainsFunc(res.Plan.Dropped, func(d render.Dropped) bool {
		return strings.HasSuffix(d.Reason, ": the same file (billing/invoice.go), which the code item shows")
	}) {
		t.Errorf("dropped %+v: want the commit of invoice.go alone", res.Plan.Dropped)
	}
	if strings.Contains(res.Plan.Content, "# Context") {
		t.Errorf("json content has the markdown header:\n%s", res.Plan.Content)
	}
}

// The artifacts source: the task first, then what its links reach, with
// the chain that reached each.
func TestCollectArtifacts(t *testing.T) {
	fsys := fstest.MapFS{
		".ctxpack/system/identity.md":        {Data: []byte("---\nid: identity\ntitle: demo\n---\n# demo\n")},
		".ctxpack/work/tasks/TASK-1.md":      {Data: []byte("---\nid: TASK-1\ntitle: Round totals\nstatus: in_progress\nlinks:\n  specs: [SPEC-1]\n---\n# Round totals\n\nOnce.\n")},
		".ctxpack/system/specs/SPEC-1.md":    {Data: []byte("---\nid: SPEC-1\ntitle: Billing\nstatus: current\n---\n# Billing\n\nTotals round half-even.\n\n## More\n\nDetails.\n")},
		".ctxpack/system/rationale/DEC-9.md": {Data: []byte("---\nid: DEC-9\ntitle: Unrelated\nstatus: current\n---\n# Unrelated\n")},
	}
	set, err := artifact.Load(fsys)
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t)
	f.env.Artifacts = func() (*artifact.Set, error) { return set, nil }
	ctx := context.Background()
	c, err := Collect(ctx, f.env, Request{Query: "TASK-1", Sources: []string{Artifacts}, Task: "TASK-1", Limit: 20, Level: pack.Full})
	if err != nil {
		t.Fatal(err)
	}
	if got := keys(c.Parts); len(got) < 2 || got[0] != "TASK-1" || !slices.Contains(got, "SPEC-1") || slices.Contains(got, "DEC-9") {
		t.Fatalf("parts %v", got)
	}
	spec := c.Parts[slices.IndexFunc(c.Parts, func(p pack.Part) bool { return p.Key == "SPEC-1" })]
	if !strings.Contains(spec.Text[pack.Full], "(via TASK-1)") || spec.Path != ".ctxpack/system/specs/SPEC-1.md" || spec.CID == "" || c.Parts[0].Score != 1 || spec.Score >= 1 {
		t.Errorf("spec part %+v", spec)
	}
	if c.Parts[0].Item.Lang != "markdown" || c.StateRoot == "" {
		t.Errorf("task part %+v, state root %q", c.Parts[0], c.StateRoot)
	}
	// A task the links do not know, and a set that fails, are warnings.
	c, err = Collect(ctx, f.env, Request{Query: "x", Sources: []string{Artifacts}, Task: "TASK-404", Limit: 20})
	if err != nil || len(c.Parts) != 0 || len(c.Warnings) != 1 || !strings.HasPrefix(c.Warnings[0], "sources: artifacts skipped: graph: no artifact TASK-404") {
		t.Errorf("unknown task: %v, %v, %q", err, keys(c.Parts), c.Warnings)
	}
	f.env.Artifacts = func() (*artifact.Set, error) { return nil, errors.New("ctxpack: unreadable") }
	if c, err = Collect(ctx, f.env, Request{Query: "x", Sources: []string{Artifacts}, Task: "TASK-1", Limit: 20}); err != nil || !slices.Contains(c.Warnings, "sources: artifacts skipped: unreadable") {
		t.Errorf("failing set: %v, %q", err, c.Warnings)
	}
	f.env.Artifacts = nil
	if c, err = Collect(ctx, f.env, Request{Query: "x", Sources: []string{Artifacts}, Task: "TASK-1", Limit: 20}); err != nil || len(c.Warnings) != 1 {
		t.Errorf("no artifacts: %v, %q", err, c.Warnings)
	}
	if r := (&collector{}).search(ctx, "nothing"); r.err == nil {
		t.Error("an unknown source searched")
	}
}

// A premortem: each section its bucket, an experience once in each
// section it is in, the strategy section only with a strategy and its
// failures first, no dedup; markdown's header and footer.
func TestPremortem(t *testing.T) {
	f := newFixture(t)
	fail := f.experience(t, store.Experience{Goal: "find the drift", Hypothesis: "rounding twice", Action: "bisect", Prediction: "a commit",
		Result: "no such commit", Outcome: store.OutcomeFalsified, Strategy: "bisect-history", Surprise: "the rate changed", Confidence: store.TierSilver})
	f.experience(t, store.Experience{Goal: "find the slow query", Hypothesis: "an index", Action: "explain", Prediction: "a scan",
		Result: "a scan", Strategy: "bisect-history", Surprise: "two scans", RootCause: "a missing index", Confidence: store.TierGold})
	f.value(t, "Check debugging assumptions with bisect-history before fixing.", 0)
	ctx := context.Background()
	c, err := Premortem(ctx, f.env, PremortemRequest{Domain: "debugging", Strategy: "bisect-history", Limit: 10, Values: 5, Level: pack.Full})
	if err != nil {
		t.Fatal(err)
	}
	buckets := map[string]int{}
	for _, p := range c.Parts {
		buckets[p.Bucket]++
		// The note names the experience, which `ctxpack experience show`
		// takes, not the part.
		if id, _, _ := strings.Cut(p.Key, "#"); p.Bucket != "principles" && (!strings.HasSuffix(p.Key, "#"+p.Bucket) || !strings.HasSuffix(p.Item.Note, "full experience ID: "+id+")*")) {
			t.Errorf("%s in %s: note %q", p.Key, p.Bucket, p.Item.Note)
		}
	}
	if buckets["failures"] != 1 || buckets["strategy"] != 2 || buckets["surprises"] != 2 || buckets["principles"] != 1 {
		t.Errorf("sections %v", buckets)
	}
	strategy := func(c *Collection, id int64) pack.Part {
		return c.Parts[slices.IndexFunc(c.Parts, func(p pack.Part) bool { return p.Key == key("experience", id, "")+"#strategy" })]
	}
	if p := strategy(c, fail); p.Components["failure"] != 1 || !strings.HasPrefix(p.Text[pack.Full], "**Falsified** debugging with bisect-history: find the drift\n") {
		t.Errorf("strategy part %+v", p)
	}
	res := assemble(t, c, pack.Options{Format: render.Markdown, Budget: 1500})
	if res.Plan.Mode != "premortem" || res.Plan.Target != "debugging with bisect-history" ||
		!strings.HasPrefix(res.Plan.Content, "# Premortem: debugging with bisect-history\n\n## Common Failures\n\n") ||
		!strings.HasSuffix(res.Plan.Content, "*Based on 2 past experiences*\n") {
		t.Errorf("content:\n%s", res.Plan.Content)
	}
	if len(res.Plan.Dropped) != 0 || len(res.Plan.Shares) != 5 {
		t.Errorf("dropped %+v (nothing is deduplicated), shares %+v", res.Plan.Dropped, res.Plan.Shares)
	}
	// Without a strategy there is no strategy section.
	if c, err = Premortem(ctx, f.env, PremortemRequest{Domain: "debugging", Limit: 10, Values: 5, Level: pack.Full}); err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(c.sections, func(s section) bool { return s.name == "strategy" }) || c.target != "debugging" {
		t.Errorf("sections %+v, target %q", c.sections, c.target)
	}
	f.env.OpenStore = func(bool) (*store.Store, error) { return nil, errors.New("store: broken") }
	if _, err := Premortem(ctx, f.env, PremortemRequest{Domain: "debugging", Limit: 1, Values: 1}); err == nil {
		t.Error("a store that cannot be opened did not fail")
	}
}

// The recency of experiences and commits is measured from the newest item
// found, never from the clock.
func TestRecency(t *testing.T) {
	for _, tt := range []struct {
		newest, t int64
		want      float64
	}{
		{0, 5, 0.9}, {5, 0, 0.9}, {100, 100, 1}, {30*86400 + 5, 5, 0.95}, {60*86400 + 5, 5, 0.925},
	} {
		if got := recency(tt.newest, tt.t); got < tt.want-1e-9 || got > tt.want+1e-9 {
			t.Errorf("recency(%d, %d) = %v, want %v", tt.newest, tt.t, got, tt.want)
		}
	}
	if topScore(0, nil) != 1 || topScore(2, func(i int) float64 { return float64(i) * 3 }) != 3 {
		t.Error("topScore")
	}
}
