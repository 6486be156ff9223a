package embed

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Defaults of HTTPConfig.
const (
	DefaultBatchSize     = 64
	DefaultTimeout       = 60 * time.Second
	DefaultMaxInputBytes = 8192
)

// maxRetryWait bounds the one wait before a retry.
const maxRetryWait = time.Second

// HTTPConfig configures an OpenAI-compatible embeddings endpoint.
type HTTPConfig struct {
	// BaseURL is the API's base URL, without "/embeddings":
	// http://127.0.0.1:11434/v1 (Ollama), http://127.0.0.1:8080/v1
	// (llama.cpp server), http://127.0.0.1:8000/v1 (vLLM),
	// https://api.openai.com/v1.
	BaseURL string
	// Model is the model name the server knows.
	Model string
	// APIKey, when not empty, is sent as "Authorization: Bearer …". It is
	// never part of the ID or of an error.
	APIKey string
	// BatchSize is how many inputs one request carries; 0 means
	// DefaultBatchSize.
	BatchSize int
	// Timeout bounds each request; 0 means DefaultTimeout.
	Timeout time.Duration
	// MaxInputBytes is the longest input sent, in bytes: longer inputs are
	// cut at the last UTF-8 boundary before it. 0 means
	// DefaultMaxInputBytes.
	MaxInputBytes int
	// Client sends the requests; nil means a client of its own with
	// http.DefaultTransport.
	Client *http.Client
}

// HTTP embeds texts through an OpenAI-compatible endpoint: it POSTs
// {"model": …, "input": […]} to BaseURL/embeddings and reads
// data[].embedding, placed by data[].index. Ollama, the llama.cpp server,
// vLLM and OpenAI speak this. It is safe for concurrent use.
type HTTP struct {
	cfg      HTTPConfig
	endpoint string // BaseURL + "/embeddings"
	shown    string // endpoint with any password redacted, for errors
	id       string
}

// NewHTTP checks cfg and returns the provider. It does not contact the
// server.
func NewHTTP(cfg HTTPConfig) (*HTTP, error) {
	base := strings.TrimRight(cfg.BaseURL, "/")
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("embed: the base URL must be an http or https URL such as http://127.0.0.1:11434/v1 (got %q)", redact(cfg.BaseURL))
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("embed: the base URL must have no query or fragment (got %q)", u.Redacted())
	}
	if cfg.Model == "" {
		return nil, errors.New("embed: no model name given for " + u.Redacted())
	}
	switch {
	case cfg.BatchSize < 0:
		return nil, fmt.Errorf("embed: batch size must not be negative (got %d)", cfg.BatchSize)
	case cfg.Timeout < 0:
		return nil, fmt.Errorf("embed: timeout must not be negative (got %s)", cfg.Timeout)
	case cfg.MaxInputBytes < 0:
		return nil, fmt.Errorf("embed: max input bytes must not be negative (got %d)", cfg.MaxInputBytes)
	}
	if cfg.BatchSize == 0 {
		cfg.BatchSize = DefaultBatchSize
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxInputBytes == 0 {
		cfg.MaxInputBytes = DefaultMaxInputBytes
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{}
	}
	cfg.BaseURL = base
	h := &HTTP{cfg: cfg, endpoint: base + "/embeddings"}
	h.shown = u.Redacted() + "/embeddings"
	h.id = "http:" + cfg.Model + "@" + u.Redacted() + ";max_input_bytes=" + strconv.Itoa(cfg.MaxInputBytes)
	return h, nil
}

// redact hides the password of a URL that parses; others are shown as is.
func redact(s string) string {
	if u, err := url.Parse(s); err == nil {
		return u.Redacted()
	}
	return s
}

// ID returns "http:MODEL@BASEURL;max_input_bytes=N" (with any password in
// the URL redacted). It changes with the model name, the server and the
// input limit, but not when a server starts serving other weights under
// the same model name: then the stored vectors must be dropped by hand.
func (h *HTTP) ID() string { return h.id }

// Embed embeds texts, BatchSize at a time, in order. Each request is
// bounded by Timeout and, on 429 or a 5xx status, retried once after at
// most a second (Retry-After, when smaller). Every vector is checked:
// one per input, non-empty, finite, all of one dimension.
func (h *HTTP) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += h.cfg.BatchSize {
		batch := texts[start:min(start+h.cfg.BatchSize, len(texts))]
		vecs, err := h.embedBatch(ctx, batch)
		if err != nil {
			return nil, err
		}
		for i, v := range vecs {
			if len(out) > 0 && len(v) != len(out[0]) {
				return nil, fmt.Errorf("embed: POST %s: vector %d has dimension %d, vector 0 has %d", h.shown, start+i, len(v), len(out[0]))
			}
			out = append(out, v)
		}
	}
	return out, nil
}

// HTTPError is an answer other than 200 OK.
type HTTPError struct {
	URL        string // the endpoint, any password redacted
	StatusCode int
	Status     string // "404 Not Found"
	Message    string // the server's error message, or the start of its answer

	retryAfter time.Duration // how long the server asked to wait, at most a second
}

func (e *HTTPError) Error() string {
	msg := "embed: POST " + e.URL + ": " + e.Status
	if e.Message != "" {
		msg += ": " + e.Message
	}
	return msg
}

type embedRequest struct {
	Model string   `json:"model"`
	Input []string `json:"input"`
}

type embedResponse struct {
	Data []struct {
		Index     *int      `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
}

func (h *HTTP) embedBatch(ctx context.Context, batch []string) ([][]float32, error) {
	in := make([]string, len(batch))
	for i, s := range batch {
		in[i] = cutUTF8(s, h.cfg.MaxInputBytes)
	}
	body, err := json.Marshal(embedRequest{Model: h.cfg.Model, Input: in})
	if err != nil {
		return nil, fmt.Errorf("embed: %w", err)
	}
	data, err := h.post(ctx, body, len(batch))
	var he *HTTPError
	if errors.As(err, &he) && retryable(he.StatusCode) {
		wait := min(he.retryAfter, maxRetryWait)
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return nil, fmt.Errorf("embed: POST %s: %w", h.shown, ctx.Err())
		}
		data, err = h.post(ctx, body, len(batch))
	}
	if err != nil {
		return nil, err
	}
	return h.decode(data, len(batch))
}

func retryable(code int) bool {
	return code == http.StatusTooManyRequests || code == http.StatusInternalServerError ||
		code == http.StatusBadGateway || code == http.StatusServiceUnavailable || code == http.StatusGatewayTimeout
}

// post sends one request and returns the body of a 200 answer.
func (h *HTTP) post(ctx context.Context, body []byte, inputs int) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, h.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("embed: POST %s: %w", h.shown, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "ctxpack")
	if h.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+h.cfg.APIKey)
	}
	resp, err := h.cfg.Client.Do(req)
	if err != nil {
		return nil, h.transportError(ctx, err)
	}
	defer resp.Body.Close()
	// An answer holds at most about a megabyte of JSON per input.
	limit := int64(inputs+1) << 20
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, h.transportError(ctx, err)
	}
	if resp.StatusCode != http.StatusOK {
		e := &HTTPError{URL: h.shown, StatusCode: resp.StatusCode, Status: resp.Status, Message: serverMessage(data)}
		if e.Status == "" {
			e.Status = strconv.Itoa(resp.StatusCode)
		}
		e.retryAfter = retryAfter(resp.Header.Get("Retry-After"))
		return nil, e
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("embed: POST %s: the answer is larger than %d bytes", h.shown, limit)
	}
	return data, nil
}

// transportError explains a failed request; a timeout names the setting.
func (h *HTTP) transportError(ctx context.Context, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("embed: POST %s: no answer within %s (embed.timeout): %w", h.shown, h.cfg.Timeout, context.DeadlineExceeded)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // the URL is already in the message, redacted
	}
	return fmt.Errorf("embed: POST %s: %w", h.shown, err)
}

// retryAfter reads a Retry-After header given in seconds; other forms
// (an HTTP date) and absence give half a second.
func retryAfter(v string) time.Duration {
	if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n >= 0 {
		return min(time.Duration(n)*time.Second, maxRetryWait)
	}
	return maxRetryWait / 2
}

// serverMessage finds the error message in an error answer: OpenAI,
// llama.cpp and newer vLLM send {"error": {"message": …}}, Ollama
// {"error": "…"}, older vLLM {"message": …}; otherwise the start of the
// body, on one line.
func serverMessage(data []byte) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(data, &v) == nil {
		var s string
		var obj struct {
			Message string `json:"message"`
		}
		switch {
		case json.Unmarshal(v.Error, &s) == nil && s != "":
			return oneLine(s, 300)
		case json.Unmarshal(v.Error, &obj) == nil && obj.Message != "":
			return oneLine(obj.Message, 300)
		case v.Message != "":
			return oneLine(v.Message, 300)
		}
	}
	return oneLine(string(data), 200)
}

// oneLine returns s with its white space runs made single spaces, cut to
// at most n bytes at a UTF-8 boundary.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(strings.ToValidUTF8(s, "\uFFFD")), " ")
	if len(s) > n {
		s = cutUTF8(s, n) + "…"
	}
	return s
}

// cutUTF8 returns the longest prefix of s of at most n bytes that does
// not end inside a UTF-8 sequence.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

// decode reads the vectors of a 200 answer, in input order.
func (h *HTTP) decode(data []byte, n int) ([][]float32, error) {
	var resp embedResponse
	if err := json.Unmarshal(data, &resp); err != nil {
		return nil, fmt.Errorf("embed: POST %s: the answer is not an embeddings response: %s", h.shown, oneLine(err.Error(), 200))
	}
	if len(resp.Data) != n {
		return nil, fmt.Errorf("embed: POST %s: %d vectors for %d inputs", h.shown, len(resp.Data), n)
	}
	out := make([][]float32, n)
	for i, d := range resp.Data {
		at := i
		if d.Index != nil {
			at = *d.Index
		}
		if at < 0 || at >= n {
			return nil, fmt.Errorf("embed: POST %s: data[%d].index is %d, not in [0, %d)", h.shown, i, at, n)
		}
		if out[at] != nil {
			return nil, fmt.Errorf("embed: POST %s: two vectors for input %d", h.shown, at)
		}
		if err := CheckVector(d.Embedding); err != nil {
			return nil, fmt.Errorf("embed: POST %s: vector for input %d: %w", h.shown, at, err)
		}
		out[at] = d.Embedding
	}
	for i, v := range out {
		if len(v) != len(out[0]) {
			return nil, fmt.Errorf("embed: POST %s: vector %d has dimension %d, vector 0 has %d", h.shown, i, len(v), len(out[0]))
		}
	}
	return out, nil
}

// CheckVector rejects empty vectors and vectors with NaN or infinities.
func CheckVector(v []float32) error {
	if len(v) == 0 {
		return errors.New("empty")
	}
	for i, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return fmt.Errorf("component %d is %v", i, x)
		}
	}
	return nil
}
