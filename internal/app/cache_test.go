package app

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ctxpack/ctxpack/internal/cache"
	"github.com/ctxpack/ctxpack/internal/index"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/render"
)

func retrievalFiles() map[string]string {
	return map[string]string{
		"billing/invoice.py":    "def round_total(total):\n    \"\"\"Round the invoice total to cents.\"\"\"\n    return round(total, 2)\n\n\ndef tax(total):\n    return total * 0.2\n",
		"billing/currency.py":   "RATES = {\"EUR\": 1.1}\n\n\ndef convert(amount, currency):\n    \"\"\"Convert an amount to another currency.\"\"\"\n    return amount * RATES[currency]\n",
		"tests/test_invoice.py": "from billing.invoice import round_total\n\n\ndef test_round_total():\n    assert round_total(1.005) == 1.0\n",
		"README.md":             "# billing\n\nInvoices and currencies.\n",
	}
}

func cacheEntries(t *testing.T, root string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(root, ".ctxpack", "cache", "assemblies", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func encoded(t *testing.T, r *Result) []byte {
	t.Helper()
	b, err := render.EncodePlan(&r.Plan)
	if err != nil {
		t.Fatal(err)
	}
	return append(b, r.Output...)
}

// TestAssemblyCache: cached and uncached results are byte-identical; a
// changed file, option or configuration is a miss; a corrupt entry is a
// miss, not an error.
func TestAssemblyCache(t *testing.T) {
	ctx := context.Background()
	root := writeProject(t, retrievalFiles())
	p, err := Open(root, "")
	if err != nil {
		t.Fatal(err)
	}
	const q = "round the invoice total"
	req := Request{Budget: 300, Format: "json"}

	fresh, err := p.Retrieve(ctx, q, Request{Budget: 300, Format: "json", NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(cacheEntries(t, root)); n != 0 {
		t.Fatalf("NoCache wrote %d entries", n)
	}
	first, err := p.Retrieve(ctx, q, req)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(cacheEntries(t, root)); n != 1 {
		t.Fatalf("%d entries after one assembly, want 1", n)
	}
	second, err := p.Retrieve(ctx, q, req)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(encoded(t, fresh), encoded(t, first)) || !bytes.Equal(encoded(t, first), encoded(t, second)) {
		t.Fatal("cached and uncached results differ")
	}
	if !reflect.DeepEqual(first.Plan.Parts, second.Plan.Parts) {
		t.Error("the cached plan's parts differ")
	}

	// The entry is what answers: a valid entry with other content is
	// returned as is (this is how a hit is told from a miss here). The
	// cache keeps the plan and rebuilds the output from it: this entry's
	// output is its content.
	key := p.cacheKeyFor(t, q, req)
	marked := *first
	marked.Plan.Content = "from the cache\n"
	marked.Output = []byte(marked.Plan.Content)
	p.cachePut(key, &marked)
	got, err := p.Retrieve(ctx, q, req)
	if err != nil || string(got.Output) != "from the cache\n" {
		t.Fatalf("not a hit: %q, %v", got.Output, err)
	}

	miss := func(name string, p *Project, req Request) {
		t.Helper()
		res, err := p.Retrieve(ctx, q, req)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if string(res.Output) == "from the cache\n" {
			t.Errorf("%s: served the entry of another key", name)
		}
	}
	miss("another budget", p, Request{Budget: 301, Format: "json"})
	miss("another format", p, Request{Budget: 300})
	miss("another depth", p, Request{Budget: 300, Format: "json", Depth: "summary"})
	miss("another tokenizer", p, Request{Budget: 300, Format: "json", Tokenizer: "cl100k_base"})
	miss("no cache", p, Request{Budget: 300, Format: "json", NoCache: true})

	// Another configuration.
	os.MkdirAll(filepath.Join(root, ".ctxpack"), 0o755)
	if err := os.WriteFile(filepath.Join(root, ".ctxpack", "config.yaml"), []byte("retrieval:\n  factors:\n    file_type: 0.3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p2, err := Open(root, "")
	if err != nil {
		t.Fatal(err)
	}
	miss("another configuration", p2, req)
	os.Remove(filepath.Join(root, ".ctxpack", "config.yaml"))

	// A new artifact: retrieval searches the artifacts, which the index
	// does not hold, so they are in the state root.
	dec := filepath.Join(root, ".ctxpack", "system", "rationale", "DEC-ROUND-001.md")
	os.MkdirAll(filepath.Dir(dec), 0o755)
	if err := os.WriteFile(dec, []byte("---\nid: DEC-ROUND-001\ntitle: Round the invoice total once\nstatus: current\n---\nHalf-even.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pa, err := Open(root, "")
	if err != nil {
		t.Fatal(err)
	}
	miss("a new artifact", pa, req)
	if withDec, err := pa.Retrieve(ctx, q, req); err != nil || !strings.Contains(string(withDec.Output), `"key": "DEC-ROUND-001"`) {
		t.Errorf("the new artifact is not retrieved: %v", err)
	}
	os.Remove(dec)

	// A changed file: a new state root.
	p.cachePut(key, &marked)
	if err := os.WriteFile(filepath.Join(root, "billing", "invoice.py"), []byte("def round_total(total):\n    return round(total, 3)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p3, _ := Open(root, "")
	res, err := p3.Retrieve(ctx, q, req)
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Output) == "from the cache\n" || res.Plan.StateRoot == first.Plan.StateRoot {
		t.Error("a changed file did not miss")
	}
	uncached, err := p3.Retrieve(ctx, q, Request{Budget: 300, Format: "json", NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(encoded(t, res), encoded(t, uncached)) {
		t.Error("after the change, cached and uncached differ")
	}

	// Corrupt every entry: misses, then healed.
	for _, e := range cacheEntries(t, root) {
		if err := os.WriteFile(e, []byte(`{"format":1,"key":"x"`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	again, err := p3.Retrieve(ctx, q, req)
	if err != nil {
		t.Fatalf("a corrupt entry is an error: %v", err)
	}
	if !bytes.Equal(encoded(t, again), encoded(t, uncached)) {
		t.Error("after corruption, the result differs")
	}
}

// cacheKeyFor is the key Retrieve uses for q and req.
func (p *Project) cacheKeyFor(t *testing.T, q string, req Request) string {
	t.Helper()
	r, err := p.rank(context.Background(), q, req.Index, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.oi.Close()
	root, _, err := p.retrievalRoot(context.Background(), r.oi)
	if err != nil {
		t.Fatal(err)
	}
	key := p.retrievalKey(q, root, req, r.Ranking, r.warnings)
	if key == "" {
		t.Fatal("no cache key")
	}
	return key
}

// TestAssemblyKeyCoversRequest: every field of Request changes the cache
// key, but those that cannot change the output; the list below names every
// field, so a new one cannot be forgotten.
func TestAssemblyKeyCoversRequest(t *testing.T) {
	key := func(req Request) string {
		t.Helper()
		k, err := cache.Key(keyOf(req))
		if err != nil {
			t.Fatalf("keyOf(%+v): %v", req, err)
		}
		return k
	}
	base := key(Request{})
	yes := true
	changes := map[string][]Request{
		"Paths": {{Paths: []string{"a"}}}, "Budget": {{Budget: 1}}, "Window": {{Window: 1}},
		"Reserves": {{Reserves: &Reserves{System: 1}}}, "Tokenizer": {{Tokenizer: "x"}},
		"Format": {{Format: "x"}}, "Strategy": {{Strategy: "x"}}, "Overflow": {{Overflow: "x"}}, "Depth": {{Depth: "x"}},
		"DedupThreshold": {{DedupThreshold: 0.5}}, "MaxChunksPerDoc": {{MaxChunksPerDoc: 1}},
		"ItemCap": {{ItemCap: 0.5}}, "PreferRecent": {{PreferRecent: &yes}}, "IncludeMetadata": {{IncludeMetadata: &yes}},
		"LinkDepth": {{LinkDepth: 1}}, "ReverseWalk": {{ReverseWalk: true}}, "Query": {{Query: "x"}},
		"Index":   {{Index: IndexOptions{File: "x"}}, {Index: IndexOptions{NoUpdate: true}}},
		"Sources": {{Sources: []string{"memories"}}}, "Task": {{Task: "TASK-1"}}, "Limit": {{Limit: 3}},
		"NoRedact": {{NoRedact: true}},
		"Diff":     {{Diff: true}}, "DiffBase": {{DiffBase: "main"}}, "Log": {{Log: 1}},
		"Include": {{Include: []string{"*.go"}}}, "Exclude": {{Exclude: []string{"*.go"}}},
		"Files": {{Files: []string{"a"}}}, "IncludeGenerated": {{IncludeGenerated: true}},
		"LineNumbers": {{LineNumbers: true}}, "RemoveComments": {{RemoveComments: true}},
		"RemoveEmptyLines": {{RemoveEmptyLines: true}}, "Tree": {{Tree: true}},
	}
	same := map[string][]Request{
		"NoCache": {{NoCache: true}}, "FreeText": {{FreeText: true}}, "Output": {{Output: "out.txt"}},
		"FilesFrom": {{FilesFrom: "standard input"}}, // a name for messages
		"Index":     {{Index: IndexOptions{Wait: time.Second, Progress: func(index.Progress) {}}}},
	}
	rt := reflect.TypeFor[Request]()
	for i := range rt.NumField() {
		if name := rt.Field(i).Name; changes[name] == nil && same[name] == nil {
			t.Errorf("Request.%s: the test does not say whether it changes the assembly cache key", name)
		}
	}
	for name, reqs := range changes {
		for _, req := range reqs {
			if key(req) == base {
				t.Errorf("%s: keyOf(%+v) is the key of the zero request", name, req)
			}
		}
	}
	for name, reqs := range same {
		for _, req := range reqs {
			if key(req) != base {
				t.Errorf("%s: keyOf(%+v) is not the key of the zero request", name, req)
			}
		}
	}
}

// TestNoCacheWithoutUpdate: with the index used as it is, files may differ
// from it, so nothing is cached.
func TestNoCacheWithoutUpdate(t *testing.T) {
	ctx := context.Background()
	root := writeProject(t, retrievalFiles())
	p, _ := Open(root, "")
	if _, err := p.Retrieve(ctx, "invoice", Request{Budget: 300, NoCache: true}); err != nil {
		t.Fatal(err) // builds the index
	}
	if _, err := p.Retrieve(ctx, "invoice", Request{Budget: 300, Index: IndexOptions{NoUpdate: true}}); err != nil {
		t.Fatal(err)
	}
	if n := len(cacheEntries(t, root)); n != 0 {
		t.Errorf("%d entries written with NoUpdate", n)
	}
}

// TestAssemblyCacheKeepsThePlan: in every format a cached result is the
// uncached one byte for byte, though an entry holds only the plan; a
// result whose output is not its plan's is not kept; a configuration that
// changes the engine's options or the tiers is a miss.
func TestAssemblyCacheKeepsThePlan(t *testing.T) {
	ctx := context.Background()
	root := writeProject(t, retrievalFiles())
	p, err := Open(root, "")
	if err != nil {
		t.Fatal(err)
	}
	const q = "round the invoice total"
	for _, f := range project.Formats() {
		req := Request{Budget: 300, Format: f}
		fresh, err := p.Retrieve(ctx, q, Request{Budget: 300, Format: f, NoCache: true})
		if err != nil {
			t.Fatal(err)
		}
		for range 2 { // a miss, then a hit
			res, err := p.Retrieve(ctx, q, req)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(encoded(t, fresh), encoded(t, res)) {
				t.Errorf("%s: cached and uncached results differ", f)
			}
		}
	}
	for _, e := range cacheEntries(t, root) {
		data, err := os.ReadFile(e)
		if err != nil {
			t.Fatal(err)
		}
		var entry struct{ Data map[string]json.RawMessage }
		if err := json.Unmarshal(data, &entry); err != nil {
			t.Fatal(err)
		}
		if _, ok := entry.Data["output"]; ok || entry.Data["plan"] == nil {
			t.Errorf("%s holds %v; want the plan alone", filepath.Base(e), slices.Sorted(maps.Keys(entry.Data)))
		}
	}

	// An output the plan does not give is not kept.
	req := Request{Budget: 300, Format: "text"}
	key := p.cacheKeyFor(t, q, req)
	hit, ok := p.cacheGet(key)
	if !ok {
		t.Fatal("no entry for the text format")
	}
	odd := *hit
	odd.Output = []byte("not the plan's content\n")
	p.cachePut(key, &odd)
	if got, ok := p.cacheGet(key); !ok || string(got.Output) != hit.Plan.Content {
		t.Errorf("after storing an output that is not the plan's: %v, %q", ok, got.Output)
	}

	// The configuration decides the engine's options and the tiers.
	marked := *hit
	marked.Plan.Content = "from the cache\n"
	marked.Output = []byte(marked.Plan.Content)
	os.MkdirAll(filepath.Join(root, ".ctxpack"), 0o755)
	for _, config := range []string{
		"pack:\n  max_chunks_per_doc: 1\n",
		"pack:\n  strategy: score\n",
		"format: json\n",
		"retrieval:\n  tiers:\n    - {name: all, share: 1, threshold: 0}\n",
	} {
		p.cachePut(key, &marked)
		if err := os.WriteFile(filepath.Join(root, ".ctxpack", "config.yaml"), []byte(config), 0o644); err != nil {
			t.Fatal(err)
		}
		p2, err := Open(root, "")
		if err != nil {
			t.Fatal(err)
		}
		res, err := p2.Retrieve(ctx, q, req)
		if err != nil {
			t.Fatalf("%q: %v", config, err)
		}
		if string(res.Output) == "from the cache\n" {
			t.Errorf("config %q: served the entry of another configuration", config)
		}
	}
}
