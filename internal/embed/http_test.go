package embed

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// fakeServer is an OpenAI-compatible embeddings endpoint. Each input's
// vector is [its length in bytes, its first byte, 1]; answers list the
// vectors in reverse order, with their index, so that clients must sort
// them. answer, when set, replaces the answer of a request.
type fakeServer struct {
	t      *testing.T
	mu     sync.Mutex
	inputs [][]string // per request
	auth   []string   // Authorization header per request
	answer func(n int, req []string) (status int, body string)
}

func (f *fakeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" || r.Header.Get("Content-Type") != "application/json" {
		http.Error(w, `{"error": {"message": "bad request line"}}`, http.StatusBadRequest)
		return
	}
	var req struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}
	body, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(body, &req); err != nil || req.Model != "m1" {
		http.Error(w, `{"error": {"message": "bad body"}}`, http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.inputs = append(f.inputs, req.Input)
	f.auth = append(f.auth, r.Header.Get("Authorization"))
	n := len(f.inputs)
	f.mu.Unlock()
	if f.answer != nil {
		if status, body := f.answer(n, req.Input); status != 0 {
			w.WriteHeader(status)
			io.WriteString(w, body)
			return
		}
	}
	type item struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	var resp struct {
		Object string `json:"object"`
		Data   []item `json:"data"`
	}
	resp.Object = "list"
	for i := len(req.Input) - 1; i >= 0; i-- {
		s := req.Input[i]
		first := float32(0)
		if s != "" {
			first = float32(s[0])
		}
		resp.Data = append(resp.Data, item{Object: "embedding", Index: i, Embedding: []float32{float32(len(s)), first, 1}})
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(resp)
}

func newFake(t *testing.T) (*fakeServer, *httptest.Server) {
	f := &fakeServer{t: t}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv
}

func want3(texts ...string) [][]float32 {
	var out [][]float32
	for _, s := range texts {
		first := float32(0)
		if s != "" {
			first = float32(s[0])
		}
		out = append(out, []float32{float32(len(s)), first, 1})
	}
	return out
}

func TestHTTPBatchingAndOrder(t *testing.T) {
	f, srv := newFake(t)
	h, err := NewHTTP(HTTPConfig{BaseURL: srv.URL + "/v1/", Model: "m1", BatchSize: 2, APIKey: "sekrit"})
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{"alpha", "be", "c", "delta", "echo!"}
	got, err := h.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want3(texts...), got); d != "" {
		t.Errorf("vectors (-want +got):\n%s", d)
	}
	if d := cmp.Diff([][]string{{"alpha", "be"}, {"c", "delta"}, {"echo!"}}, f.inputs); d != "" {
		t.Errorf("requests (-want +got):\n%s", d)
	}
	for _, a := range f.auth {
		if a != "Bearer sekrit" {
			t.Errorf("Authorization = %q", a)
		}
	}
	if got, err := h.Embed(context.Background(), nil); err != nil || len(got) != 0 || len(f.inputs) != 3 {
		t.Errorf("Embed(nil) = %v, %v after %d requests; want nothing sent", got, err, len(f.inputs))
	}
	if id := h.ID(); id != "http:m1@"+srv.URL+"/v1;max_input_bytes=8192" || strings.Contains(id, "sekrit") {
		t.Errorf("ID = %q", id)
	}
}

func TestHTTPNoKeyNoHeader(t *testing.T) {
	f, srv := newFake(t)
	h, err := NewHTTP(HTTPConfig{BaseURL: srv.URL + "/v1", Model: "m1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Embed(context.Background(), []string{"x"}); err != nil {
		t.Fatal(err)
	}
	if f.auth[0] != "" {
		t.Errorf("Authorization = %q without a key", f.auth[0])
	}
}

func TestHTTPMaxInputBytes(t *testing.T) {
	f, srv := newFake(t)
	h, err := NewHTTP(HTTPConfig{BaseURL: srv.URL + "/v1", Model: "m1", MaxInputBytes: 3})
	if err != nil {
		t.Fatal(err)
	}
	// "héllo": é takes bytes 1 and 2, so a 3-byte cut keeps "hé"; "aé"
	// fits; "abé" is cut before é.
	if _, err := h.Embed(context.Background(), []string{"héllo", "aé", "abé", "€x"}); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"hé", "aé", "ab", "€"}, f.inputs[0]); d != "" {
		t.Errorf("inputs (-want +got):\n%s", d)
	}
	if !strings.HasSuffix(h.ID(), ";max_input_bytes=3") {
		t.Errorf("ID %q does not name the input limit", h.ID())
	}
}

func TestHTTPErrors(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		want   string // the error after "embed: POST URL"
	}{
		{"openai error", 404, `{"error": {"message": "The model 'm1' does not exist", "type": "invalid_request_error"}}`,
			`: 404 Not Found: The model 'm1' does not exist`},
		{"ollama error", 400, `{"error": "model \"m1\" not found, try pulling it first"}`,
			`: 400 Bad Request: model "m1" not found, try pulling it first`},
		{"vllm error", 400, `{"object": "error", "message": "input too long", "code": 400}`,
			`: 400 Bad Request: input too long`},
		{"plain text", 401, "Unauthorized\n\nplease log in", `: 401 Unauthorized: Unauthorized please log in`},
		{"empty body", 403, "", `: 403 Forbidden`},
		{"not json", 200, `<html>`, `: the answer is not an embeddings response: invalid character '<' looking for beginning of value`},
		{"wrong count", 200, `{"data": [{"index": 0, "embedding": [1, 2]}]}`, `: 1 vectors for 2 inputs`},
		{"dimensions", 200, `{"data": [{"index": 0, "embedding": [1, 2]}, {"index": 1, "embedding": [1, 2, 3]}]}`,
			`: vector 1 has dimension 3, vector 0 has 2`},
		{"empty vector", 200, `{"data": [{"index": 0, "embedding": []}, {"index": 1, "embedding": []}]}`,
			`: vector for input 0: empty`},
		{"index out of range", 200, `{"data": [{"index": 0, "embedding": [1]}, {"index": 2, "embedding": [1]}]}`,
			`: data[1].index is 2, not in [0, 2)`},
		{"index repeated", 200, `{"data": [{"index": 1, "embedding": [1]}, {"index": 1, "embedding": [1]}]}`,
			`: two vectors for input 1`},
		{"NaN", 200, `{"data": [{"index": 0, "embedding": [NaN]}, {"index": 1, "embedding": [1]}]}`,
			`: the answer is not an embeddings response: invalid character 'N' looking for beginning of value`},
		{"overflow", 200, `{"data": [{"index": 0, "embedding": [1e39]}, {"index": 1, "embedding": [1]}]}`,
			`: the answer is not an embeddings response: json: cannot unmarshal number 1e39 into Go struct field .data.embedding of type float32`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, srv := newFake(t)
			f.answer = func(int, []string) (int, string) { return tt.status, tt.body }
			h, err := NewHTTP(HTTPConfig{BaseURL: srv.URL + "/v1", Model: "m1"})
			if err != nil {
				t.Fatal(err)
			}
			_, err = h.Embed(context.Background(), []string{"a", "b"})
			want := "embed: POST " + srv.URL + "/v1/embeddings" + tt.want
			if err == nil || err.Error() != want {
				t.Errorf("error:\n got %v\nwant %s", err, want)
			}
			if len(f.inputs) != 1 {
				t.Errorf("%d requests; want 1 (no retry)", len(f.inputs))
			}
			var he *HTTPError
			if tt.status != 200 && (!errors.As(err, &he) || he.StatusCode != tt.status) {
				t.Errorf("error %v is not an *HTTPError with status %d", err, tt.status)
			}
		})
	}
}

func TestHTTPRetry(t *testing.T) {
	tests := []struct {
		name     string
		statuses []int // answers to the requests, 0 = a good one
		header   string
		requests int
		wantErr  string
	}{
		{"503 then ok", []int{503, 0}, "", 2, ""},
		{"429 then ok, Retry-After 0", []int{429, 0}, "0", 2, ""},
		{"429 twice", []int{429, 429}, "30", 2, ": 429 Too Many Requests: slow down"},
		{"400 is not retried", []int{400, 0}, "", 1, ": 400 Bad Request: slow down"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, srv := newFake(t)
			f.answer = func(n int, _ []string) (int, string) {
				if s := tt.statuses[n-1]; s != 0 {
					return s, `{"error": {"message": "slow down"}}`
				}
				return 0, ""
			}
			h, err := NewHTTP(HTTPConfig{BaseURL: srv.URL + "/v1", Model: "m1"})
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			_, err = h.Embed(context.Background(), []string{"a"})
			if took := time.Since(start); took > 3*time.Second {
				t.Errorf("took %s; a retry waits at most a second", took)
			}
			if len(f.inputs) != tt.requests {
				t.Errorf("%d requests, want %d", len(f.inputs), tt.requests)
			}
			if tt.wantErr == "" && err != nil {
				t.Errorf("error %v", err)
			}
			if tt.wantErr != "" && (err == nil || err.Error() != "embed: POST "+srv.URL+"/v1/embeddings"+tt.wantErr) {
				t.Errorf("error %v, want …%s", err, tt.wantErr)
			}
		})
	}
}

func TestRetryAfter(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"": 500 * time.Millisecond, "0": 0, "1": time.Second, "120": time.Second, "-1": 500 * time.Millisecond,
		"Wed, 21 Oct 2015 07:28:00 GMT": 500 * time.Millisecond,
	} {
		if got := retryAfter(in); got != want {
			t.Errorf("retryAfter(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestHTTPTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)
	h, err := NewHTTP(HTTPConfig{BaseURL: srv.URL + "/v1", Model: "m1", Timeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	_, err = h.Embed(context.Background(), []string{"a"})
	want := "embed: POST " + srv.URL + "/v1/embeddings: no answer within 50ms (embed.timeout): context deadline exceeded"
	if err == nil || err.Error() != want || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %v, want %s", err, want)
	}

	// The caller's cancellation is not reported as a timeout.
	h, _ = NewHTTP(HTTPConfig{BaseURL: srv.URL + "/v1", Model: "m1"})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	_, err = h.Embed(ctx, []string{"a"})
	if err == nil || !errors.Is(err, context.Canceled) || strings.Contains(err.Error(), "timeout") {
		t.Errorf("cancelled: error %v", err)
	}
}

func TestHTTPConnectionRefused(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	h, err := NewHTTP(HTTPConfig{BaseURL: url + "/v1", Model: "m1"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = h.Embed(context.Background(), []string{"a"})
	if err == nil || !strings.HasPrefix(err.Error(), "embed: POST "+url+"/v1/embeddings: ") || strings.Count(err.Error(), url) != 1 {
		t.Errorf("error %v", err)
	}
}

func TestNewHTTPErrors(t *testing.T) {
	tests := []struct {
		cfg  HTTPConfig
		want string
	}{
		{HTTPConfig{BaseURL: "localhost:11434", Model: "m"}, `embed: the base URL must be an http or https URL such as http://127.0.0.1:11434/v1 (got "localhost:11434")`},
		{HTTPConfig{BaseURL: "ftp://x/v1", Model: "m"}, `embed: the base URL must be an http or https URL such as http://127.0.0.1:11434/v1 (got "ftp://x/v1")`},
		{HTTPConfig{BaseURL: "http://u:pw@x/v1?a=1", Model: "m"}, `embed: the base URL must have no query or fragment (got "http://u:xxxxx@x/v1?a=1")`},
		{HTTPConfig{BaseURL: "http://x/v1"}, `embed: no model name given for http://x/v1`},
		{HTTPConfig{BaseURL: "http://x/v1", Model: "m", BatchSize: -1}, `embed: batch size must not be negative (got -1)`},
		{HTTPConfig{BaseURL: "http://x/v1", Model: "m", Timeout: -1}, `embed: timeout must not be negative (got -1ns)`},
		{HTTPConfig{BaseURL: "http://x/v1", Model: "m", MaxInputBytes: -1}, `embed: max input bytes must not be negative (got -1)`},
	}
	for _, tt := range tests {
		if _, err := NewHTTP(tt.cfg); err == nil || err.Error() != tt.want {
			t.Errorf("NewHTTP(%+v) error:\n got %v\nwant %s", tt.cfg, err, tt.want)
		}
	}
	h, err := NewHTTP(HTTPConfig{BaseURL: "https://user:pw@example.com/v1", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if h.ID() != "http:m@https://user:xxxxx@example.com/v1;max_input_bytes=8192" {
		t.Errorf("ID = %q; the password must be redacted", h.ID())
	}
}

func TestCutUTF8(t *testing.T) {
	for _, s := range []string{"", "abc", "héllo", "€€€", "a\xffb"} {
		for n := 0; n <= len(s)+1; n++ {
			got := cutUTF8(s, n)
			if len(got) > n || !strings.HasPrefix(s, got) {
				t.Errorf("cutUTF8(%q, %d) = %q", s, n, got)
			}
			if n < len(s) && len(got) < n-3 {
				t.Errorf("cutUTF8(%q, %d) = %q cuts too much", s, n, got)
			}
			if utf8.ValidString(s) && !utf8.ValidString(got) {
				t.Errorf("cutUTF8(%q, %d) = %q cuts a character", s, n, got)
			}
		}
	}
}
