package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net"
	"net/http"
	"regexp"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/record"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The acceptance point "Load (loopback only, bounded)": clients on
// loopback make a fixed, deterministic mix of requests against the
// streamable HTTP server; every one must succeed, every context for the
// same inputs must have the same digest, and after shutdown no goroutine
// started by the run may be left. Latencies are reported, never asserted.

// loadSizes are the clients and requests of a run: the acceptance's 50
// and 2,000, or 10 and 200 under -short (CI runs -race -short).
func loadSizes() (clients, requests int) {
	if testing.Short() {
		return 10, 200
	}
	return 50, 2000
}

// loadCopyExample copies examples/billing into a temporary directory,
// without ctxpack's generated files, and builds its index there so the
// first retrieval requests do not all race to build it.
func loadCopyExample(t *testing.T) string {
	t.Helper()
	dst := testProject(t)
	p, err := app.Open(dst, "")
	if err != nil {
		t.Fatal(err)
	}
	oi, err := p.OpenIndex(app.IndexOptions{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer oi.Close()
	st, err := p.UpdateIndex(context.Background(), oi, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Files == 0 || st.Chunks == 0 {
		t.Fatalf("index of the example: %d files, %d chunks", st.Files, st.Chunks)
	}
	return dst
}

// loadServer is a server running ServeHTTP on a loopback listener.
type loadServer struct {
	url    string
	cancel context.CancelFunc
	done   chan error
}

// loadLog keeps the warnings and errors the server logs: a request that
// succeeds with a warning (a budget record not written, an HTTP error
// status) is a failure under load too.
type loadLog struct {
	mu   sync.Mutex
	msgs []string
}

func (l *loadLog) Enabled(_ context.Context, level slog.Level) bool { return level >= slog.LevelWarn }

func (l *loadLog) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", r.Level, r.Message)
	r.Attrs(func(a slog.Attr) bool {
		fmt.Fprintf(&b, " %s=%v", a.Key, a.Value)
		return true
	})
	l.mu.Lock()
	defer l.mu.Unlock()
	l.msgs = append(l.msgs, b.String())
	return nil
}

func (l *loadLog) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *loadLog) WithGroup(string) slog.Handler      { return l }

func (l *loadLog) messages() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.msgs)
}

func loadStart(t *testing.T, dir string, log *loadLog) *loadServer {
	t.Helper()
	srv, err := New(Options{Dir: dir, Logger: slog.New(log)})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ls := &loadServer{url: "http://" + ln.Addr().String() + Path, cancel: cancel, done: make(chan error, 1)}
	go func() { ls.done <- srv.ServeHTTP(ctx, ln, HTTPOptions{}) }()
	return ls
}

// stop cancels the server's context and waits for ServeHTTP, which must
// return nil; it returns how long that took.
func (ls *loadServer) stop(t *testing.T) time.Duration {
	t.Helper()
	start := time.Now()
	ls.cancel()
	select {
	case err := <-ls.done:
		if err != nil {
			t.Errorf("ServeHTTP: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("ServeHTTP did not return a minute after its context ended")
	}
	return time.Since(start)
}

// loadHTTPClient is an HTTP client of its own, so that its idle
// connections can be closed at the end.
func loadHTTPClient(clients int) (*http.Client, *http.Transport) {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 2*clients + 8
	return &http.Client{Transport: tr}, tr
}

func loadConnect(ctx context.Context, url string, hc *http.Client, i int) (*mcp.ClientSession, error) {
	c := mcp.NewClient(&mcp.Implementation{Name: "load-" + strconv.Itoa(i), Version: "test"}, nil)
	return c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, nil)
}

// loadClient is one client's session and what it has seen.
type loadClient struct {
	cs         *mcp.ClientSession
	lastDigest string // the digest of this session's last assembly
}

// loadDigests collects the digests of the assemblies that must agree.
type loadDigests struct {
	mu   sync.Mutex
	seen map[string]map[string]int // what -> digest -> count
}

func (d *loadDigests) add(what, digest string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.seen[what] == nil {
		d.seen[what] = map[string]int{}
	}
	d.seen[what][digest]++
}

// loadKind is one kind of request of the mix.
type loadKind struct {
	name string
	do   func(ctx context.Context, c *loadClient, d *loadDigests) error
}

// loadTool calls a tool; a protocol error or a tool error is an error.
// The structured result is decoded into out when out is not nil.
func loadTool(ctx context.Context, cs *mcp.ClientSession, name string, args map[string]any, out any) (*mcp.CallToolResult, error) {
	params, err := opParams(name, args)
	if err != nil {
		return nil, err
	}
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		return nil, err
	}
	if res.IsError {
		var msg strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				msg.WriteString(tc.Text)
			}
		}
		return nil, fmt.Errorf("tool error: %s", msg.String())
	}
	if out != nil {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, out); err != nil {
			return nil, fmt.Errorf("structured content: %w", err)
		}
	}
	return res, nil
}

type loadPlan struct {
	Digest string `json:"digest"`
	Mode   string `json:"mode"`
	Parts  []struct {
		Key string `json:"key"`
	} `json:"parts"`
}

// loadAssembly is a context or pack call; its digest becomes the
// session's last.
func loadAssembly(tool, what string, args map[string]any) loadKind {
	return loadKind{what, func(ctx context.Context, c *loadClient, d *loadDigests) error {
		var plan loadPlan
		if _, err := loadTool(ctx, c.cs, tool, args, &plan); err != nil {
			return err
		}
		if !strings.HasPrefix(plan.Digest, "sha256:") || len(plan.Parts) == 0 {
			return fmt.Errorf("plan without digest or parts: %+v", plan)
		}
		c.lastDigest = plan.Digest
		d.add(what, plan.Digest)
		return nil
	}}
}

var loadDigestRE = regexp.MustCompile(`"digest": "(sha256:[0-9a-f]+)"`)

// loadKinds is the mix, in its round-robin order. A context TASK-042
// opens every client's sequence (see loadRun), so the plan resource
// always has a plan to give.
var loadKinds = []loadKind{
	loadAssembly("context", "context TASK-042", map[string]any{"target": "TASK-042", "budget": 600}),
	{"resource plan/last", func(ctx context.Context, c *loadClient, _ *loadDigests) error {
		res, err := c.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "ctxpack://plan/last"})
		if err != nil {
			return err
		}
		if len(res.Contents) != 1 {
			return fmt.Errorf("%d contents", len(res.Contents))
		}
		var plan loadPlan
		if err := json.Unmarshal([]byte(res.Contents[0].Text), &plan); err != nil {
			return err
		}
		if plan.Digest != c.lastDigest {
			return fmt.Errorf("the session's last plan has digest %s, its last assembly %s", plan.Digest, c.lastDigest)
		}
		return nil
	}},
	loadAssembly("context", "context free text", map[string]any{"target": "invoice total rounding", "budget": 2000}),
	{"search", func(ctx context.Context, c *loadClient, _ *loadDigests) error {
		var out struct {
			Results []json.RawMessage `json:"results"`
		}
		if _, err := loadTool(ctx, c.cs, "search", map[string]any{"query": "invoice total rounding", "k": 5}, &out); err != nil {
			return err
		}
		if len(out.Results) == 0 {
			return errors.New("no results")
		}
		return nil
	}},
	{"show", func(ctx context.Context, c *loadClient, _ *loadDigests) error {
		var out struct {
			ID string `json:"id"`
		}
		res, err := loadTool(ctx, c.cs, "show", map[string]any{"id": "SPEC-BILLING-001"}, &out)
		if err != nil {
			return err
		}
		if len(res.Content) == 0 {
			return errors.New("no content")
		}
		return nil
	}},
	loadAssembly("context", "context src", map[string]any{"target": "src", "budget": 1500}),
	{"list", func(ctx context.Context, c *loadClient, _ *loadDigests) error {
		var out struct {
			Artifacts []json.RawMessage `json:"artifacts"`
		}
		if _, err := loadTool(ctx, c.cs, "list", map[string]any{}, &out); err != nil {
			return err
		}
		if len(out.Artifacts) == 0 {
			return errors.New("no artifacts")
		}
		return nil
	}},
	{"check", func(ctx context.Context, c *loadClient, _ *loadDigests) error {
		_, err := loadTool(ctx, c.cs, "check", map[string]any{}, nil)
		return err
	}},
	{"explain", func(ctx context.Context, c *loadClient, _ *loadDigests) error {
		res, err := loadTool(ctx, c.cs, "explain", map[string]any{"task": "TASK-042", "artifact": "NORM-ERROR-001"}, nil)
		if err != nil {
			return err
		}
		if len(res.Content) == 0 {
			return errors.New("no content")
		}
		return nil
	}},
	{"tokens", func(ctx context.Context, c *loadClient, _ *loadDigests) error {
		var out struct {
			Total int `json:"total"`
		}
		if _, err := loadTool(ctx, c.cs, "tokens", map[string]any{"paths": []string{"src"}}, &out); err != nil {
			return err
		}
		if out.Total <= 0 {
			return fmt.Errorf("total %d", out.Total)
		}
		return nil
	}},
	loadAssembly("pack", "pack src", map[string]any{"paths": []string{"src"}, "budget": 1000}),
	{"resource artifact", func(ctx context.Context, c *loadClient, _ *loadDigests) error {
		res, err := c.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "ctxpack://artifact/SPEC-BILLING-001"})
		if err != nil {
			return err
		}
		if len(res.Contents) != 1 || !strings.Contains(res.Contents[0].Text, "SPEC-BILLING-001") {
			return fmt.Errorf("unexpected contents: %d", len(res.Contents))
		}
		return nil
	}},
	{"prompt explain_context", func(ctx context.Context, c *loadClient, d *loadDigests) error {
		res, err := c.cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "explain_context", Arguments: map[string]string{"target": "TASK-042", "budget": "600"}})
		if err != nil {
			return err
		}
		if len(res.Messages) != 1 {
			return fmt.Errorf("%d messages", len(res.Messages))
		}
		tc, ok := res.Messages[0].Content.(*mcp.TextContent)
		if !ok {
			return fmt.Errorf("content %T", res.Messages[0].Content)
		}
		m := loadDigestRE.FindStringSubmatch(tc.Text)
		if m == nil {
			return errors.New("the prompt's plan has no digest")
		}
		c.lastDigest = m[1] // the prompt's assembly is the session's last plan too
		d.add("prompt explain_context TASK-042", m[1])
		return nil
	}},
}

// loadStats are the latencies of a run, by kind.
type loadStats struct {
	all    []time.Duration
	byKind map[string][]time.Duration
	errs   []string
	nerrs  int
}

// loadPct is the nearest-rank percentile p of sorted latencies.
func loadPct(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(p/100*float64(len(sorted)))) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

func loadSummary(l []time.Duration) string {
	s := slices.Clone(l)
	slices.Sort(s)
	return fmt.Sprintf("n=%d p50=%s p90=%s p99=%s max=%s", len(s),
		loadPct(s, 50).Round(10*time.Microsecond), loadPct(s, 90).Round(10*time.Microsecond),
		loadPct(s, 99).Round(10*time.Microsecond), loadPct(s, 100).Round(10*time.Microsecond))
}

// loadRun makes requests requests over the clients' sessions at once:
// client i makes every request whose number is i modulo the clients. Its
// first request is context TASK-042; then it goes round the mix from its
// own offset, so that at any time the clients ask for different things.
func loadRun(ctx context.Context, clients []*loadClient, requests int, d *loadDigests) *loadStats {
	type result struct {
		kind string
		took time.Duration
		err  error
	}
	results := make([][]result, len(clients))
	var wg sync.WaitGroup
	for i, c := range clients {
		n := requests / len(clients)
		if i < requests%len(clients) {
			n++
		}
		wg.Go(func() {
			for j := range n {
				k := loadKinds[0]
				if j > 0 {
					k = loadKinds[(i+j)%len(loadKinds)]
				}
				start := time.Now()
				err := k.do(ctx, c, d)
				results[i] = append(results[i], result{k.name, time.Since(start), err})
			}
		})
	}
	wg.Wait()
	st := &loadStats{byKind: map[string][]time.Duration{}}
	for i, rs := range results {
		for _, r := range rs {
			st.all = append(st.all, r.took)
			st.byKind[r.kind] = append(st.byKind[r.kind], r.took)
			if r.err != nil {
				st.nerrs++
				if len(st.errs) < 20 {
					st.errs = append(st.errs, fmt.Sprintf("client %d, %s: %v", i, r.kind, r.err))
				}
			}
		}
	}
	return st
}

// loadGoroutines is the goroutine dump, and the ids of the goroutines in
// it with their stacks.
func loadGoroutines() (string, map[int]string) {
	var buf bytes.Buffer
	_ = pprof.Lookup("goroutine").WriteTo(&buf, 2)
	dump := buf.String()
	ids := map[int]string{}
	for _, g := range strings.Split(dump, "\n\n") {
		g = strings.TrimSpace(g)
		rest, ok := strings.CutPrefix(g, "goroutine ")
		if !ok {
			continue
		}
		num, _, _ := strings.Cut(rest, " ")
		if id, err := strconv.Atoi(num); err == nil {
			ids[id] = g
		}
	}
	return dump, ids
}

// loadServerFrames matches the stack of a goroutine of the server: an
// HTTP connection served, the MCP handler, or this package's server.
var loadServerFrames = regexp.MustCompile(`net/http\.\(\*conn\)\.serve|net/http\.\(\*Server\)|mcp\.\(\*Streamable(HTTPHandler|ServerTransport)\)|mcp\.\(\*streamableServerConn\)|mcp\.\(\*ServerSession\)|internal/mcpserver\.`)

// loadWaitGoroutines waits up to five seconds for the number of
// goroutines started since b whose stacks match frames to be one done
// accepts, and returns the last number.
func loadWaitGoroutines(b loadBaseline, frames *regexp.Regexp, done func(int) bool) int {
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, ids := loadGoroutines()
		n := 0
		for id, g := range ids {
			if _, ok := b.ids[id]; ok {
				continue
			}
			if frames.MatchString(g) {
				n++
			}
		}
		if done(n) || time.Now().After(deadline) {
			return n
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// loadBaseline is the goroutines before a run.
type loadBaseline struct {
	n   int
	ids map[int]string
}

func loadTakeBaseline() loadBaseline {
	n := runtime.NumGoroutine()
	_, ids := loadGoroutines()
	return loadBaseline{n, ids}
}

// loadCheckLeaks waits up to five seconds for the goroutine count to be
// back at most at the baseline's, with none of the goroutines started
// since still there; otherwise it fails with the goroutines left.
func loadCheckLeaks(t *testing.T, b loadBaseline, tr *http.Transport) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		tr.CloseIdleConnections()
		n := runtime.NumGoroutine()
		dump, ids := loadGoroutines()
		var left []string
		for id, g := range ids {
			if _, ok := b.ids[id]; !ok {
				left = append(left, g)
			}
		}
		if n <= b.n && len(left) == 0 {
			t.Logf("goroutines: %d before, %d after", b.n, n)
			return
		}
		if time.Now().After(deadline) {
			slices.Sort(left)
			t.Errorf("goroutine leak: %d goroutines before, %d five seconds after shutdown; %d started during the run are left:\n\n%s\n\nfull dump:\n%s",
				b.n, n, len(left), strings.Join(left, "\n\n"), dump)
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// loadDeadline is the generous bound of a whole run.
func loadDeadline(t *testing.T) (context.Context, context.CancelFunc) {
	if d, ok := t.Deadline(); ok {
		return context.WithDeadline(context.Background(), d.Add(-30*time.Second))
	}
	return context.WithTimeout(context.Background(), 15*time.Minute)
}

// TestLoadHTTP is the load acceptance: clients making a deterministic
// mix of requests at once, zero errors, the same digest for the same
// context, latencies reported, and no goroutine left after shutdown.
func TestLoadHTTP(t *testing.T) {
	nclients, nrequests := loadSizes()
	dir := loadCopyExample(t)
	ctx, cancel := loadDeadline(t)
	defer cancel()

	base := loadTakeBaseline()
	log := &loadLog{}
	ls := loadStart(t, dir, log)
	hc, tr := loadHTTPClient(nclients)
	clients := make([]*loadClient, nclients)
	for i := range clients {
		cs, err := loadConnect(ctx, ls.url, hc, i)
		if err != nil {
			ls.stop(t)
			t.Fatalf("client %d: connect: %v", i, err)
		}
		clients[i] = &loadClient{cs: cs}
	}

	d := &loadDigests{seen: map[string]map[string]int{}}
	start := time.Now()
	st := loadRun(ctx, clients, nrequests, d)
	wall := time.Since(start)

	t.Logf("load: %d clients, %d requests, %d errors, GOMAXPROCS %d, wall %s, throughput %.1f requests/s",
		nclients, len(st.all), st.nerrs, runtime.GOMAXPROCS(0), wall.Round(time.Millisecond), float64(len(st.all))/wall.Seconds())
	t.Logf("latency: %s", loadSummary(st.all))
	kinds := make([]string, 0, len(st.byKind))
	for k := range st.byKind {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	for _, k := range kinds {
		t.Logf("  %-28s %s", k, loadSummary(st.byKind[k]))
	}
	if len(st.all) != nrequests {
		t.Errorf("%d requests made, want %d", len(st.all), nrequests)
	}
	if st.nerrs > 0 {
		t.Errorf("%d of %d requests failed; the first:\n%s", st.nerrs, len(st.all), strings.Join(st.errs, "\n"))
	}

	// Determinism under load: the same inputs, the same digest.
	for what, digests := range d.seen {
		if len(digests) != 1 {
			t.Errorf("%s: %d different digests under load: %v", what, len(digests), digests)
		}
	}
	task := d.seen["context TASK-042"]
	prompt := d.seen["prompt explain_context TASK-042"]
	if len(task) == 0 {
		t.Error("no context TASK-042 was assembled")
	}
	for dg := range prompt {
		if _, ok := task[dg]; !ok {
			t.Errorf("explain_context TASK-042 (budget 600) assembled digest %s, the context tool %v", dg, task)
		}
	}

	// Every assembly, of a tool or a prompt, wrote its budget record,
	// whole, though they were written at once.
	assemblies := 0
	for _, k := range []string{"context TASK-042", "context free text", "context src", "pack src", "prompt explain_context"} {
		assemblies += len(st.byKind[k])
	}
	p, err := app.Open(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	recs, bad, err := p.Records()
	if err != nil {
		t.Error(err)
	}
	if want := min(assemblies, record.DefaultMax); len(recs) != want || len(bad) != 0 {
		t.Errorf("budget records: %d, and %d lines that are not records (the first: %v); want %d records", len(recs), len(bad), bad[:min(len(bad), 1)], want)
	}

	// Shutdown: the clients leave, then the server stops.
	for i, c := range clients {
		if err := c.cs.Close(); err != nil {
			t.Errorf("client %d: close: %v", i, err)
		}
	}
	tr.CloseIdleConnections()
	took := ls.stop(t)
	t.Logf("ServeHTTP returned %s after its context ended", took.Round(10*time.Microsecond))
	if msgs := log.messages(); len(msgs) > 0 {
		t.Errorf("the server logged %d warnings; the first:\n%s", len(msgs), strings.Join(msgs[:min(len(msgs), 20)], "\n"))
	}
	loadCheckLeaks(t, base, tr)
}

// TestLoadShutdownOpenSessions stops the server while its clients'
// sessions are still open, each with its event stream: ServeHTTP closes
// them and returns nil promptly (well within its shutdown timeout), and
// once the clients are closed too no goroutine is left.
func TestLoadShutdownOpenSessions(t *testing.T) {
	nclients := 10
	if testing.Short() {
		nclients = 5
	}
	dir := loadCopyExample(t)
	ctx, cancel := loadDeadline(t)
	defer cancel()

	base := loadTakeBaseline()
	ls := loadStart(t, dir, &loadLog{})
	hc, tr := loadHTTPClient(nclients)
	clients := make([]*loadClient, nclients)
	for i := range clients {
		cs, err := loadConnect(ctx, ls.url, hc, i)
		if err != nil {
			ls.stop(t)
			t.Fatalf("client %d: connect: %v", i, err)
		}
		clients[i] = &loadClient{cs: cs}
	}
	d := &loadDigests{seen: map[string]map[string]int{}}
	st := loadRun(ctx, clients, 3*nclients, d) // context, then two more each
	if st.nerrs > 0 {
		t.Errorf("%d of %d requests failed; the first:\n%s", st.nerrs, len(st.all), strings.Join(st.errs, "\n"))
	}

	// The sessions are open, each with its event stream (the standalone
	// GET): the server stops first.
	streams := regexp.MustCompile(`mcp\.\(\*StreamableHTTPHandler\)\.serveStatefulGET`)
	if n := loadWaitGoroutines(base, streams, func(n int) bool { return n == nclients }); n != nclients {
		t.Errorf("%d event streams open before shutdown, want %d", n, nclients)
	}
	if n := loadWaitGoroutines(base, loadServerFrames, func(n int) bool { return n >= nclients }); n < nclients {
		t.Errorf("%d server goroutines before shutdown, want at least %d", n, nclients)
	}
	took := ls.stop(t)
	t.Logf("with %d sessions open, ServeHTTP returned %s after its context ended", nclients, took.Round(10*time.Microsecond))

	// No goroutine of the server is left, before the clients are closed.
	if n := loadWaitGoroutines(base, loadServerFrames, func(n int) bool { return n == 0 }); n != 0 {
		dump, _ := loadGoroutines()
		t.Errorf("%d server goroutines left after ServeHTTP returned:\n%s", n, dump)
	}

	// The server's sessions are closed: a request on one fails.
	for i, c := range clients {
		cctx, ccancel := context.WithTimeout(ctx, 30*time.Second)
		_, err := c.cs.ListTools(cctx, nil)
		ccancel()
		if err == nil {
			t.Errorf("client %d: a request after the server stopped succeeded", i)
		}
	}
	for _, c := range clients {
		_ = c.cs.Close() // the server is gone: its DELETE fails
	}
	tr.CloseIdleConnections()
	loadCheckLeaks(t, base, tr)
}
