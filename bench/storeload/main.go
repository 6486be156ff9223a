// Command storeload drives `ctxpack serve --http` (and the ctxpack binary)
// for issue 19's measurements of the store: concurrent writers, a write
// loop across a database restart, and the latency of sources-mode queries.
// bench/store-concurrency.sh, bench/store-faults.sh and
// bench/store-latency.sh run it; it prints figures, the scripts judge them.
//
//	storeload add   -url URL [-token-file F] [-writers 20] [-adds 500]
//	storeload loop  -url URL [-token-file F] -acked FILE -log FILE -stop FILE [-writers 20]
//	storeload probe -url URL [-token-file F] [-query TEXT]
//	storeload query -url URL [-token-file F] -queries FILE [-clients 50] [-budget 4000] [-digests FILE]
//	storeload exec  -cx CTXPACK -dir DIR -queries FILE [-budget 4000] [-digests FILE]
//
// URL is the server's endpoint, http://HOST:PORT/mcp; the token file's
// content (spaces trimmed) goes in an Authorization: Bearer header.
//
// add opens -writers MCP sessions at once, each calling store_edit add
// -adds times with a memory of its own content ("writer W note I ..."),
// and prints the wall time, the adds acknowledged and failed, and adds/s.
//
// loop opens -writers sessions, each adding memories ("loop note W-I ...")
// one after another until the file -stop exists, appending each
// acknowledged content to -acked as soon as it is acknowledged, and a line
// per failed call (time, error text) to -log; on every 10th call the first
// session reads too (context on memories) and logs the read's outcome.
// After a failure a session waits 100 ms.
//
// probe opens a session and makes one read (context on memories) and one
// write, and prints each outcome, the error's text when there is one; it
// exits 0 either way.
//
// query and exec run the queries of FILE (lines "sources<TAB>QUERY", as
// bench/store-queryset.sh prints them; other kinds are skipped) in sources
// mode over memories, experiences and values, in JSON, and print the
// p50, p99 and largest latency of a query and the throughput. query
// shares them among -clients sessions of the context tool; exec runs each
// as a fresh `ctxpack context QUERY --sources memories,experiences,values
// --format json --no-record --no-cache` process, one after another.
// -digests gets "QUERY<TAB>DIGEST" lines in the file's order.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const sourcesList = "memories,experiences,values"

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: storeload add|loop|probe|query|exec [flags] (see the package comment)")
		os.Exit(2)
	}
	mode := os.Args[1]
	fs := flag.NewFlagSet("storeload "+mode, flag.ExitOnError)
	url := fs.String("url", "", "the server's endpoint, http://HOST:PORT/mcp")
	tokenFile := fs.String("token-file", "", "a file holding the bearer token")
	writers := fs.Int("writers", 20, "add, loop: sessions writing at once")
	adds := fs.Int("adds", 500, "add: memories each session adds")
	acked := fs.String("acked", "", "loop: the file of acknowledged contents")
	logFile := fs.String("log", "", "loop: the file of failures and reads")
	stop := fs.String("stop", "", "loop: stop once this file exists")
	query := fs.String("query", "note", "probe: the read's query")
	queries := fs.String("queries", "", "query, exec: the query file")
	clients := fs.Int("clients", 50, "query: sessions at once")
	budget := fs.Int("budget", 4000, "query, exec: the budget")
	digests := fs.String("digests", "", "query, exec: write QUERY<TAB>DIGEST lines here")
	cx := fs.String("cx", "", "exec: the ctxpack binary")
	dir := fs.String("dir", "", "exec: the project")
	fs.Parse(os.Args[2:])

	var err error
	switch mode {
	case "add":
		err = runAdd(*url, *tokenFile, *writers, *adds)
	case "loop":
		err = runLoop(*url, *tokenFile, *acked, *logFile, *stop, *writers)
	case "probe":
		err = runProbe(*url, *tokenFile, *query)
	case "query":
		err = runQuery(*url, *tokenFile, *queries, *clients, *budget, *digests)
	case "exec":
		err = runExec(*cx, *dir, *queries, *budget, *digests)
	default:
		err = fmt.Errorf("unknown mode %q: add, loop, probe, query or exec", mode)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "storeload:", err)
		os.Exit(1)
	}
}

// bearer adds the Authorization header to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	if b.token != "" {
		r = r.Clone(r.Context())
		r.Header.Set("Authorization", "Bearer "+b.token)
	}
	return b.next.RoundTrip(r)
}

// dialer opens sessions on the server, sharing one HTTP transport that
// keeps a connection per session alive.
type dialer struct {
	url    string
	client *http.Client
}

func newDialer(url, tokenFile string, sessions int) (*dialer, error) {
	if url == "" {
		return nil, errors.New("-url is required")
	}
	token := ""
	if tokenFile != "" {
		b, err := os.ReadFile(tokenFile)
		if err != nil {
			return nil, err
		}
		token = strings.TrimSpace(string(b))
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = sessions + 4
	tr.MaxConnsPerHost = 0
	return &dialer{url: url, client: &http.Client{Transport: bearer{token, tr}}}, nil
}

// sessions opens n sessions; close closes those it opened, also on error.
func (d *dialer) sessions(ctx context.Context, n int) (ss []*mcp.ClientSession, close func(), err error) {
	close = func() {
		for _, s := range ss {
			s.Close()
		}
	}
	for i := range n {
		s, err := d.session(ctx)
		if err != nil {
			close()
			return nil, func() {}, fmt.Errorf("session %d: %w", i+1, err)
		}
		ss = append(ss, s)
	}
	return ss, close, nil
}

func (d *dialer) session(ctx context.Context) (*mcp.ClientSession, error) {
	c := mcp.NewClient(&mcp.Implementation{Name: "storeload", Version: "1"}, nil)
	return c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: d.url, HTTPClient: d.client, MaxRetries: -1}, nil)
}

// call calls a tool and returns its structured result, or an error that
// holds the tool's error text.
func call(ctx context.Context, cs *mcp.ClientSession, tool string, args map[string]any) (json.RawMessage, error) {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return nil, fmt.Errorf("call: %w", err)
	}
	if res.IsError {
		var texts []string
		for _, c := range res.Content {
			if t, ok := c.(*mcp.TextContent); ok {
				texts = append(texts, t.Text)
			}
		}
		return nil, fmt.Errorf("tool error: %s", strings.Join(texts, " "))
	}
	return json.Marshal(res.StructuredContent)
}

func addMemory(ctx context.Context, cs *mcp.ClientSession, content string) error {
	_, err := call(ctx, cs, "store_edit", map[string]any{"action": "add", "memory": map[string]any{"content": content}})
	return err
}

func sourcesQuery(ctx context.Context, cs *mcp.ClientSession, q string, sources []string, budget int) (string, error) {
	out, err := call(ctx, cs, "context", map[string]any{"target": q, "sources": sources, "budget": budget, "format": "json"})
	if err != nil {
		return "", err
	}
	var plan struct {
		Digest string `json:"digest"`
	}
	if err := json.Unmarshal(out, &plan); err != nil {
		return "", fmt.Errorf("the context tool's result: %w", err)
	}
	if plan.Digest == "" {
		return "", errors.New("the context tool's result has no digest")
	}
	return plan.Digest, nil
}

// words makes each content searchable and distinct.
var words = []string{"invoice", "rounding", "cache", "retry", "timeout", "schema", "parser", "budget", "token", "index"}

func runAdd(url, tokenFile string, writers, adds int) error {
	d, err := newDialer(url, tokenFile, writers)
	if err != nil {
		return err
	}
	ctx := context.Background()
	sessions, closeAll, err := d.sessions(ctx, writers)
	if err != nil {
		return err
	}
	defer closeAll()
	var mu sync.Mutex
	ok, failed := 0, 0
	var firstErrs []string
	var wg sync.WaitGroup
	start := time.Now()
	for w, cs := range sessions {
		wg.Go(func() {
			for i := range adds {
				content := fmt.Sprintf("writer %02d note %03d about %s and %s", w+1, i+1, words[(w+i)%len(words)], words[(w*7+i*3)%len(words)])
				err := addMemory(ctx, cs, content)
				mu.Lock()
				if err == nil {
					ok++
				} else {
					failed++
					if len(firstErrs) < 5 {
						firstErrs = append(firstErrs, err.Error())
					}
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	wall := time.Since(start).Seconds()
	fmt.Printf("mcp writers %d x %d adds: %d acknowledged, %d failed, wall %.1f s, %.0f adds/s\n", writers, adds, ok, failed, wall, float64(ok)/wall)
	for _, e := range firstErrs {
		fmt.Printf("  error: %s\n", e)
	}
	return nil
}

func runLoop(url, tokenFile, ackedPath, logPath, stopPath string, writers int) error {
	if ackedPath == "" || logPath == "" || stopPath == "" {
		return errors.New("loop needs -acked, -log and -stop")
	}
	d, err := newDialer(url, tokenFile, writers)
	if err != nil {
		return err
	}
	ctx := context.Background()
	sessions, closeAll, err := d.sessions(ctx, writers)
	if err != nil {
		return err
	}
	defer closeAll()
	acked, err := os.Create(ackedPath)
	if err != nil {
		return err
	}
	defer acked.Close()
	logf, err := os.Create(logPath)
	if err != nil {
		return err
	}
	defer logf.Close()
	var mu sync.Mutex // over the files
	logLine := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(logf, time.Now().UTC().Format("15:04:05.000")+" "+format+"\n", args...)
	}
	var wg sync.WaitGroup
	var werr error
	for w, cs := range sessions {
		wg.Go(func() {
			for i := 1; ; i++ {
				if _, err := os.Stat(stopPath); err == nil {
					return
				}
				content := fmt.Sprintf("loop note %02d-%06d about %s", w+1, i, words[i%len(words)])
				err := addMemory(ctx, cs, content)
				if err == nil {
					// Written at once, unbuffered: the file holds every
					// ack even if this process is killed.
					mu.Lock()
					_, ferr := fmt.Fprintln(acked, content)
					if ferr != nil && werr == nil {
						werr = ferr
					}
					mu.Unlock()
				} else {
					logLine("write %02d-%d failed: %s", w+1, i, oneLine(err))
				}
				if w == 0 && i%10 == 0 {
					if _, rerr := sourcesQuery(ctx, cs, "loop note", []string{"memories"}, 2000); rerr != nil {
						logLine("read failed: %s", oneLine(rerr))
					} else {
						logLine("read ok")
					}
				}
				if err != nil {
					time.Sleep(100 * time.Millisecond)
				}
			}
		})
	}
	wg.Wait()
	return werr
}

func oneLine(err error) string { return strings.ReplaceAll(err.Error(), "\n", " | ") }

func runProbe(url, tokenFile, q string) error {
	d, err := newDialer(url, tokenFile, 1)
	if err != nil {
		return err
	}
	ctx := context.Background()
	cs, err := d.session(ctx)
	if err != nil {
		fmt.Printf("session: %s\n", oneLine(err))
		return nil
	}
	defer cs.Close()
	if digest, err := sourcesQuery(ctx, cs, q, []string{"memories"}, 2000); err != nil {
		fmt.Printf("read: %s\n", oneLine(err))
	} else {
		fmt.Printf("read: ok, digest %s\n", digest)
	}
	if err := addMemory(ctx, cs, fmt.Sprintf("probe note %d", time.Now().UnixNano())); err != nil {
		fmt.Printf("write: %s\n", oneLine(err))
	} else {
		fmt.Println("write: ok")
	}
	return nil
}

// readQueries returns the sources queries of the file.
func readQueries(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var qs []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		kind, q, ok := strings.Cut(sc.Text(), "\t")
		if ok && kind == "sources" {
			qs = append(qs, q)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("%s: no sources queries", path)
	}
	return qs, nil
}

// report prints the latencies' p50, p99 and largest, and the throughput.
func report(label string, lat []time.Duration, wall time.Duration, failed int) {
	s := slices.Clone(lat)
	slices.Sort(s)
	pct := func(p float64) float64 {
		if len(s) == 0 {
			return math.NaN()
		}
		i := int(math.Ceil(p*float64(len(s)))) - 1
		return float64(s[max(i, 0)].Microseconds()) / 1000
	}
	fmt.Printf("%s: %d queries, %d failed, p50 %.1f ms, p99 %.1f ms, max %.1f ms, wall %.1f s, %.1f queries/s\n",
		label, len(lat), failed, pct(0.50), pct(0.99), pct(1), wall.Seconds(), float64(len(lat))/wall.Seconds())
}

func writeDigests(path string, qs, ds []string) error {
	if path == "" {
		return nil
	}
	var b bytes.Buffer
	for i, q := range qs {
		fmt.Fprintf(&b, "%s\t%s\n", q, ds[i])
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

func runQuery(url, tokenFile, path string, clients, budget int, digestPath string) error {
	qs, err := readQueries(path)
	if err != nil {
		return err
	}
	d, err := newDialer(url, tokenFile, clients)
	if err != nil {
		return err
	}
	ctx := context.Background()
	sessions, closeAll, err := d.sessions(ctx, clients)
	if err != nil {
		return err
	}
	defer closeAll()
	sources := strings.Split(sourcesList, ",")
	ds := make([]string, len(qs))
	lat := make([]time.Duration, len(qs))
	next := make(chan int)
	var mu sync.Mutex
	failed := 0
	var firstErrs []string
	var wg sync.WaitGroup
	start := time.Now()
	for _, cs := range sessions {
		wg.Go(func() {
			for i := range next {
				t := time.Now()
				digest, err := sourcesQuery(ctx, cs, qs[i], sources, budget)
				lat[i] = time.Since(t)
				ds[i] = digest
				if err != nil {
					mu.Lock()
					failed++
					if len(firstErrs) < 5 {
						firstErrs = append(firstErrs, err.Error())
					}
					mu.Unlock()
				}
			}
		})
	}
	for i := range qs {
		next <- i
	}
	close(next)
	wg.Wait()
	report(fmt.Sprintf("http, %d clients", clients), lat, time.Since(start), failed)
	for _, e := range firstErrs {
		fmt.Printf("  error: %s\n", e)
	}
	return writeDigests(digestPath, qs, ds)
}

func runExec(cx, dir, path string, budget int, digestPath string) error {
	if cx == "" || dir == "" {
		return errors.New("exec needs -cx and -dir")
	}
	qs, err := readQueries(path)
	if err != nil {
		return err
	}
	ds := make([]string, len(qs))
	lat := make([]time.Duration, len(qs))
	start := time.Now()
	for i, q := range qs {
		cmd := exec.Command(cx, "-C", dir, "context", q, "--sources", sourcesList, "--budget", fmt.Sprint(budget), "--format", "json", "--no-record", "--no-cache")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		t := time.Now()
		out, err := cmd.Output()
		lat[i] = time.Since(t)
		if err != nil {
			return fmt.Errorf("query %d (%s): %v: %s", i+1, q, err, stderr.String())
		}
		var plan struct {
			Digest string `json:"digest"`
		}
		if err := json.Unmarshal(out, &plan); err != nil || plan.Digest == "" {
			return fmt.Errorf("query %d (%s): no digest in the output: %v", i+1, q, err)
		}
		ds[i] = plan.Digest
	}
	report("cli, a process per query", lat, time.Since(start), 0)
	return writeDigests(digestPath, qs, ds)
}
