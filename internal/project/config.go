package project

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/ctxpack/ctxpack/internal/tokenizer"
	"go.yaml.in/yaml/v3"
)

// Config is a project's settings: .ctxpack/config.yaml (or
// .contextia/config.yaml). Start from Defaults(); the zero Config is not
// valid (it has no tokenizer, format or strategies).
//
// yaml.Marshal of a Config writes a file that LoadConfig reads back to the
// same Config.
type Config struct {
	Tokenizer string      `yaml:"tokenizer"` // tokenizer name; default "o200k_base"
	Format    string      `yaml:"format"`    // output format; default "text"
	Budget    int         `yaml:"budget"`    // tokens; 0 = none given
	Window    int         `yaml:"window"`    // context window in tokens; 0 = none given
	Reserves  Reserves    `yaml:"reserves"`
	Pack      PackConfig  `yaml:"pack"`
	Walk      WalkConfig  `yaml:"walk"`
	Embed     EmbedConfig `yaml:"embed"`

	// Extra holds the top-level sections this package does not know
	// (links, check, retrieval, sources, …) as parsed, with their
	// positions, for the features that own them; see Section.
	Extra map[string]yaml.Node `yaml:",inline"`

	// Source is the file the Config was read from; "" for defaults.
	Source string `yaml:"-"`
}

// Reserves are the tokens held back from a window: Budget = Window − Total().
type Reserves struct {
	System   int `yaml:"system"`   // default 200
	Query    int `yaml:"query"`    // default 100
	Response int `yaml:"response"` // default 500

	Extra map[string]yaml.Node `yaml:",inline"` // unknown keys, kept (LoadConfig warns)
}

// Total returns the sum of the reserves (math.MaxInt if it overflows).
func (r Reserves) Total() int {
	t := 0
	for _, v := range []int{r.System, r.Query, r.Response} {
		if v > 0 && t > math.MaxInt-v {
			return math.MaxInt
		}
		t += v
	}
	return t
}

// PackConfig holds the packing knobs (DESIGN §3).
type PackConfig struct {
	Strategy        string  `yaml:"strategy"`           // greedy, interleaved, score, relevance; "" is the mode's (relevance where parts are ranked by a query, else greedy)
	Overflow        string  `yaml:"overflow"`           // degrade (default), drop, truncate, error, allow
	DedupThreshold  float64 `yaml:"dedup_threshold"`    // in (0, 1]; default 0.8
	MaxChunksPerDoc int     `yaml:"max_chunks_per_doc"` // 0 = no limit
	ItemCap         float64 `yaml:"item_cap"`           // share of a bucket one part may take, in (0, 1]; default 0.25
	PreferRecent    bool    `yaml:"prefer_recent"`      // boost recently changed files (git history); default false
	IncludeMetadata bool    `yaml:"include_metadata"`   // a provenance line atop the content; default false

	Extra map[string]yaml.Node `yaml:",inline"` // unknown keys, kept (LoadConfig warns)
}

// WalkConfig holds the settings of the file walk; see WalkConfig.Options.
type WalkConfig struct {
	MaxFileBytes  int64 `yaml:"max_file_bytes"` // default 1 MiB; 0 = the default
	IncludeHidden bool  `yaml:"include_hidden"` // default true; .git is always skipped
	// IncludeGenerated walks lock files and generated files too (default
	// false: they are skipped with their reasons; WalkOptions.SkipGenerated).
	IncludeGenerated bool `yaml:"include_generated"`

	Extra map[string]yaml.Node `yaml:",inline"` // unknown keys, kept (LoadConfig warns)
}

// EmbedConfig is the embed section: the embedding provider of semantic
// search (DESIGN §5), which package embed builds (embed.FromConfig). The
// zero value configures none: retrieval is then lexical only. Zero
// numbers mean the provider's defaults.
type EmbedConfig struct {
	Provider string `yaml:"provider"` // http or static; "" = none
	// http: an OpenAI-compatible endpoint.
	URL       string `yaml:"url"`         // the API's base URL, e.g. http://127.0.0.1:11434/v1
	Model     string `yaml:"model"`       // the model name the server knows
	APIKeyEnv string `yaml:"api_key_env"` // the environment variable holding the API key; "" = none
	// static: a model2vec export directory or a word2vec/GloVe text
	// vectors file, relative to the project root (or absolute).
	Path string `yaml:"path"`
	// http only.
	BatchSize     int           `yaml:"batch_size"`      // inputs per request; 0 = 64
	Timeout       time.Duration `yaml:"timeout"`         // per request, a duration such as 30s; 0 = 60s
	MaxInputBytes int           `yaml:"max_input_bytes"` // longer inputs are cut; 0 = 8192

	Extra map[string]yaml.Node `yaml:",inline"` // unknown keys, kept (LoadConfig warns)
}

// EmbedProviders returns the values embed.provider accepts besides "".
func EmbedProviders() []string { return []string{"http", "static"} }

// Formats returns the output formats the format setting accepts.
func Formats() []string { return []string{"text", "markdown", "doc", "xml", "json", "mdctx"} }

// Strategies returns the packing strategies pack.strategy accepts.
func Strategies() []string { return []string{"greedy", "interleaved", "score", "relevance"} }

// Overflows returns the overflow strategies pack.overflow accepts.
func Overflows() []string { return []string{"degrade", "drop", "truncate", "error", "allow"} }

// Defaults returns the default configuration.
func Defaults() Config {
	return Config{
		Tokenizer: tokenizer.Default,
		Format:    "text",
		Reserves:  Reserves{System: 200, Query: 100, Response: 500},
		Pack: PackConfig{
			Overflow:       "degrade",
			DedupThreshold: 0.8,
			ItemCap:        0.25,
		},
		Walk: WalkConfig{MaxFileBytes: DefaultMaxFileBytes, IncludeHidden: true},
	}
}

// Warning is a problem that does not stop loading, with its location.
type Warning struct {
	Path string
	Line int // 1-based; 0 when unknown
	Msg  string
}

// String returns "path:line: msg" (or "path: msg" without a line).
func (w Warning) String() string { return location(w.Path, w.Line) + w.Msg }

// ConfigError is an invalid setting, with its location. LoadConfig and
// Validate return them (joined with errors.Join when there are several);
// use errors.As to get at them.
type ConfigError struct {
	Path string // the file; "" when the Config did not come from a file
	Line int    // 1-based; 0 when unknown
	Key  string // the dotted key ("pack.overflow"); "" for syntax errors
	Msg  string // what is wrong and what is wanted
}

// Error returns "project: path:line: msg".
func (e *ConfigError) Error() string { return "project: " + location(e.Path, e.Line) + e.Msg }

func location(path string, line int) string {
	switch {
	case path == "":
		return ""
	case line > 0:
		return path + ":" + strconv.Itoa(line) + ": "
	default:
		return path + ": "
	}
}

// A field is one known scalar setting.
type field struct {
	key  string // dotted: "budget", "pack.overflow"
	ptr  any    // *string, *int, *int64, *float64, *bool or *time.Duration into a Config
	must string // "must be …", the rule in words
	ok   func() bool
	// hide keeps the value out of error messages (it may be a secret put
	// in the wrong place).
	hide bool
}

// fields lists c's known settings, with pointers into c, in file order.
func (c *Config) fields() []field {
	return []field{
		enumField("tokenizer", &c.Tokenizer, tokenizer.Names()),
		enumField("format", &c.Format, Formats()),
		intField("budget", &c.Budget),
		intField("window", &c.Window),
		intField("reserves.system", &c.Reserves.System),
		intField("reserves.query", &c.Reserves.Query),
		intField("reserves.response", &c.Reserves.Response),
		enumField("pack.strategy", &c.Pack.Strategy, append([]string{""}, Strategies()...)),
		enumField("pack.overflow", &c.Pack.Overflow, Overflows()),
		fractionField("pack.dedup_threshold", &c.Pack.DedupThreshold),
		intField("pack.max_chunks_per_doc", &c.Pack.MaxChunksPerDoc),
		fractionField("pack.item_cap", &c.Pack.ItemCap),
		boolField("pack.prefer_recent", &c.Pack.PreferRecent),
		boolField("pack.include_metadata", &c.Pack.IncludeMetadata),
		{key: "walk.max_file_bytes", ptr: &c.Walk.MaxFileBytes, must: "must be a non-negative integer (bytes; 0 = 1 MiB)",
			ok: func() bool { return c.Walk.MaxFileBytes >= 0 }},
		boolField("walk.include_hidden", &c.Walk.IncludeHidden),
		boolField("walk.include_generated", &c.Walk.IncludeGenerated),
		{key: "embed.provider", ptr: &c.Embed.Provider, must: "must be one of " + strings.Join(EmbedProviders(), ", "),
			ok: func() bool { return c.Embed.Provider == "" || slices.Contains(EmbedProviders(), c.Embed.Provider) }},
		{key: "embed.url", ptr: &c.Embed.URL, must: "must be an http or https URL such as http://127.0.0.1:11434/v1, with no query",
			ok: func() bool { return c.Embed.URL == "" || isHTTPURL(c.Embed.URL) }},
		{key: "embed.model", ptr: &c.Embed.Model, must: "must be a model name", ok: func() bool { return true }},
		{key: "embed.api_key_env", ptr: &c.Embed.APIKeyEnv, hide: true,
			must: "must be the name of an environment variable (letters, digits and _), not the key itself",
			ok:   func() bool { return c.Embed.APIKeyEnv == "" || isEnvName(c.Embed.APIKeyEnv) }},
		{key: "embed.path", ptr: &c.Embed.Path, must: "must be a path", ok: func() bool { return true }},
		intField("embed.batch_size", &c.Embed.BatchSize),
		{key: "embed.timeout", ptr: &c.Embed.Timeout, must: "must be a duration such as 30s or 2m (0 = 60s)",
			ok: func() bool { return c.Embed.Timeout >= 0 }},
		intField("embed.max_input_bytes", &c.Embed.MaxInputBytes),
	}
}

// isHTTPURL reports whether s is an absolute http or https URL with a
// host and no query or fragment (a base URL that paths are added to).
func isHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.RawQuery == "" && u.Fragment == ""
}

// isEnvName reports whether s is a portable environment variable name.
func isEnvName(s string) bool {
	for i, r := range s {
		if !(r == '_' || 'A' <= r && r <= 'Z' || 'a' <= r && r <= 'z' || i > 0 && '0' <= r && r <= '9') {
			return false
		}
	}
	return s != ""
}

// embedProblems checks the embed settings against each other: what the
// provider needs, and settings it does not use. Each problem is the key it
// is about and the message; warn marks those that are only warnings.
func (c *Config) embedProblems() []problem {
	e := &c.Embed
	var out []problem
	need := func(key, val, what string) {
		if val == "" {
			out = append(out, problem{key: key, msg: fmt.Sprintf("%s is required with embed.provider %s (%s)", key, e.Provider, what)})
		}
	}
	unused := func(key string, set bool) {
		if !set {
			return
		}
		if e.Provider == "" {
			out = append(out, problem{key: key, warn: true, msg: key + " is set but embed.provider is not; semantic search is off"})
		} else {
			out = append(out, problem{key: key, warn: true, msg: fmt.Sprintf("%s is not used with embed.provider %s", key, e.Provider)})
		}
	}
	httpKeys := func(used bool) {
		unused("embed.url", !used && e.URL != "")
		unused("embed.model", !used && e.Model != "")
		unused("embed.api_key_env", !used && e.APIKeyEnv != "")
		unused("embed.batch_size", !used && e.BatchSize != 0)
		unused("embed.timeout", !used && e.Timeout != 0)
		unused("embed.max_input_bytes", !used && e.MaxInputBytes != 0)
	}
	switch e.Provider {
	case "http":
		need("embed.url", e.URL, "the API's base URL, e.g. http://127.0.0.1:11434/v1")
		need("embed.model", e.Model, "the model name the server knows, e.g. nomic-embed-text")
		httpKeys(true)
		unused("embed.path", e.Path != "")
	case "static":
		need("embed.path", e.Path, "a model2vec export directory or a text vectors file, relative to the project root")
		httpKeys(false)
	case "":
		httpKeys(false)
		unused("embed.path", e.Path != "")
	}
	return out
}

// problem is a setting that conflicts with another.
type problem struct {
	key, msg string
	warn     bool
}

func enumField(key string, p *string, allowed []string) field {
	return field{key: key, ptr: p, must: "must be one of " + strings.Join(allowed, ", "),
		ok: func() bool { return slices.Contains(allowed, *p) }}
}

func intField(key string, p *int) field {
	return field{key: key, ptr: p, must: "must be a non-negative integer", ok: func() bool { return *p >= 0 }}
}

func fractionField(key string, p *float64) field {
	return field{key: key, ptr: p, must: "must be a number in (0, 1]", ok: func() bool { return *p > 0 && *p <= 1 }}
}

func boolField(key string, p *bool) field {
	return field{key: key, ptr: p, must: "must be true or false", ok: func() bool { return true }}
}

// value returns the field's current value as the YAML it would be written as.
func (f field) value() string {
	switch p := f.ptr.(type) {
	case *string:
		return strconv.Quote(*p)
	case *int:
		return strconv.Itoa(*p)
	case *int64:
		return strconv.FormatInt(*p, 10)
	case *float64:
		return strconv.FormatFloat(*p, 'g', -1, 64)
	case *bool:
		return strconv.FormatBool(*p)
	case *time.Duration:
		return strconv.Quote(p.String())
	}
	panic("project: unhandled field type") // unreachable: fields() lists the types above
}

// shown is the field's value for an error message.
func (f field) shown() string {
	if f.hide {
		return "a value that is not one"
	}
	return f.value()
}

// Validate checks every setting's range and the settings against each
// other. LoadConfig already does; Validate is for Configs changed after
// loading (by command-line flags, say).
func (c Config) Validate() error {
	var errs []error
	for _, f := range c.fields() {
		if !f.ok() {
			errs = append(errs, &ConfigError{Path: c.Source, Key: f.key, Msg: fmt.Sprintf("%s %s (got %s)", f.key, f.must, f.shown())})
		}
	}
	if msg := c.windowProblem(); msg != "" {
		errs = append(errs, &ConfigError{Path: c.Source, Key: "window", Msg: msg})
	}
	for _, p := range c.embedProblems() {
		if !p.warn {
			errs = append(errs, &ConfigError{Path: c.Source, Key: p.key, Msg: p.msg})
		}
	}
	return errors.Join(errs...)
}

// windowProblem describes a window too small for the reserves, or "".
func (c *Config) windowProblem() string {
	if c.Window > 0 && c.Window <= c.Reserves.Total() {
		return fmt.Sprintf("window %d leaves no budget after the reserves (system %d + query %d + response %d = %d); raise window or lower reserves",
			c.Window, c.Reserves.System, c.Reserves.Query, c.Reserves.Response, c.Reserves.Total())
	}
	return ""
}

// Section decodes the top-level section name (one of Extra) into out with
// yaml.v3's rules, and reports whether the section is present. Errors name
// the file and the section.
func (c Config) Section(name string, out any) (bool, error) {
	n, ok := c.Extra[name]
	if !ok {
		return false, nil
	}
	if err := n.Decode(out); err != nil {
		return true, fmt.Errorf("project: %s%s: %w", location(c.Source, n.Line), name, err)
	}
	return true, nil
}

// maxConfigBytes bounds a configuration file: far above any real one,
// and far below what would hurt to read.
const maxConfigBytes = 1 << 20

// LoadConfig reads the configuration file name from fsys on top of
// Defaults(). A missing file gives the defaults and no error.
//
// Every problem is reported with the file and line: YAML syntax errors,
// values of the wrong type or out of range, and repeated keys are errors
// (*ConfigError, joined when there are several; the Config is then
// Defaults()). Unknown keys inside the known sections (reserves, pack,
// walk, embed) are warnings, and are kept in the section's Extra. Unknown
// top-level keys are kept in Config.Extra for later features, with a
// warning only when they look like a misspelt known key. A key with no
// value keeps its default. The embed settings are also checked against
// each other: a setting the provider needs is an error when missing, one
// it does not use is a warning. Warnings come in file order.
//
// The file must be a regular file of at most maxConfigBytes.
func LoadConfig(fsys fs.FS, name string) (Config, []Warning, error) {
	data, err := ReadFile(fsys, name, maxConfigBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return Defaults(), nil, nil
	}
	if err != nil {
		return Defaults(), nil, fmt.Errorf("project: read config: %w", err)
	}
	l := loader{path: name, cfg: Defaults()}
	l.cfg.Source = name
	l.load(data)
	slices.SortStableFunc(l.warnings, func(a, b Warning) int { return a.Line - b.Line })
	if len(l.errs) > 0 {
		return Defaults(), l.warnings, errors.Join(l.errs...)
	}
	return l.cfg, l.warnings, nil
}

type loader struct {
	path     string
	cfg      Config
	warnings []Warning
	errs     []error
}

func (l *loader) errorf(n *yaml.Node, key, format string, args ...any) {
	line := 0
	if n != nil {
		line = n.Line
	}
	l.errs = append(l.errs, &ConfigError{Path: l.path, Line: line, Key: key, Msg: fmt.Sprintf(format, args...)})
}

func (l *loader) warnf(n *yaml.Node, format string, args ...any) {
	l.warnings = append(l.warnings, Warning{Path: l.path, Line: n.Line, Msg: fmt.Sprintf(format, args...)})
}

// syntaxError records a YAML syntax error, taking the line out of yaml.v3's
// message ("yaml: line 3: …").
func (l *loader) syntaxError(err error) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 0
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if num, after, ok := strings.Cut(rest, ": "); ok {
			if n, err := strconv.Atoi(num); err == nil {
				line, msg = n, after
			}
		}
	}
	msg = strings.Join(strings.Fields(msg), " ") // one line
	l.errs = append(l.errs, &ConfigError{Path: l.path, Line: line, Msg: "invalid YAML: " + msg})
}

func (l *loader) load(data []byte) {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := decodeNode(dec, &doc); err == io.EOF {
		return // empty file
	} else if err != nil {
		l.syntaxError(err)
		return
	}
	var next yaml.Node
	if err := decodeNode(dec, &next); err == nil {
		at := &next
		if len(next.Content) > 0 {
			at = next.Content[0]
		}
		l.warnf(at, "only the first YAML document is read; this one is ignored")
	} else if err != io.EOF {
		l.syntaxError(err)
		return
	}
	if len(doc.Content) == 0 {
		return
	}
	top := DerefYAML(doc.Content[0])
	if IsNullYAML(top) {
		return
	}
	if top.Kind != yaml.MappingNode {
		l.errorf(top, "", "the file must be a mapping of settings (got %s)", DescribeYAML(top))
		return
	}
	fields := l.cfg.fields()
	lines := make(map[string]int) // key → line, for checks across keys
	for _, kv := range l.pairs(top, "") {
		key := kv.Key.Value
		lines[key] = kv.Key.Line
		if f := lookupField(fields, key); f != nil {
			l.set(f, kv.Key, kv.Val)
			continue
		}
		if !slices.Contains(sections(), key) {
			if l.cfg.Extra == nil {
				l.cfg.Extra = make(map[string]yaml.Node)
			}
			l.cfg.Extra[key] = *kv.Val
			if s := Suggest(key, topKeys()); s != "" {
				l.warnf(kv.Key, "unknown key %q (did you mean %q?); kept for later features", key, s)
			}
			continue
		}
		val := DerefYAML(kv.Val)
		if IsNullYAML(val) {
			continue
		}
		if val.Kind != yaml.MappingNode {
			l.errorf(kv.Key, key, "%s must be a mapping of settings (got %s)", key, DescribeYAML(val))
			continue
		}
		for _, skv := range l.pairs(val, key+".") {
			full := key + "." + skv.Key.Value
			lines[full] = skv.Key.Line
			if f := lookupField(fields, full); f != nil {
				l.set(f, skv.Key, skv.Val)
				continue
			}
			extra := l.cfg.sectionExtra(key)
			if *extra == nil {
				*extra = make(map[string]yaml.Node)
			}
			(*extra)[skv.Key.Value] = *skv.Val
			if s := Suggest(full, sectionKeys(fields, key)); s != "" {
				l.warnf(skv.Key, "unknown key %q (did you mean %q?); kept but not used", full, s)
			} else {
				l.warnf(skv.Key, "unknown key %q; kept but not used", full)
			}
		}
	}
	if msg := l.cfg.windowProblem(); msg != "" {
		l.errs = append(l.errs, &ConfigError{Path: l.path, Line: lines["window"], Key: "window", Msg: msg})
	}
	if len(l.errs) == 0 {
		for _, p := range l.cfg.embedProblems() {
			line := cmp.Or(lines[p.key], lines["embed.provider"], lines["embed"])
			if p.warn {
				l.warnings = append(l.warnings, Warning{Path: l.path, Line: line, Msg: p.msg})
			} else {
				l.errs = append(l.errs, &ConfigError{Path: l.path, Line: line, Key: p.key, Msg: p.msg})
			}
		}
	}
}

// sections returns the top-level keys that hold a mapping of known
// settings.
func sections() []string { return []string{"reserves", "pack", "walk", "embed"} }

// decodeNode decodes the next document into n. The YAML library is not
// trusted to never panic on hostile input: a panic becomes an error.
func decodeNode(dec *yaml.Decoder, n *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: %v", r)
		}
	}()
	return dec.Decode(n)
}

func (c *Config) sectionExtra(section string) *map[string]yaml.Node {
	switch section {
	case "reserves":
		return &c.Reserves.Extra
	case "pack":
		return &c.Pack.Extra
	case "embed":
		return &c.Embed.Extra
	default:
		return &c.Walk.Extra
	}
}

func lookupField(fields []field, key string) *field {
	for i := range fields {
		if fields[i].key == key {
			return &fields[i]
		}
	}
	return nil
}

func topKeys() []string {
	return append([]string{"tokenizer", "format", "budget", "window"}, sections()...)
}

func sectionKeys(fields []field, section string) []string {
	var keys []string
	for _, f := range fields {
		if strings.HasPrefix(f.key, section+".") {
			keys = append(keys, f.key)
		}
	}
	return keys
}

// set decodes the scalar val into f, checking its type and range.
func (l *loader) set(f *field, key, val *yaml.Node) {
	val = DerefYAML(val)
	if IsNullYAML(val) {
		return
	}
	bad := func() {
		got := DescribeYAML(val)
		if f.hide {
			got = "a value that is not one"
		}
		l.errorf(key, f.key, "%s %s (got %s)", f.key, f.must, got)
	}
	if val.Kind != yaml.ScalarNode {
		bad()
		return
	}
	tag := val.ShortTag()
	var err error
	switch p := f.ptr.(type) {
	case *string:
		if tag != "!!str" {
			bad()
			return
		}
		*p = val.Value
	case *int:
		if tag != "!!int" {
			bad()
			return
		}
		var v int64
		if err = val.Decode(&v); err == nil && (v < math.MinInt || v > math.MaxInt) {
			err = errors.New("out of range")
		}
		*p = int(v)
	case *int64:
		if tag != "!!int" {
			bad()
			return
		}
		err = val.Decode(p)
	case *float64:
		if tag != "!!int" && tag != "!!float" {
			bad()
			return
		}
		err = val.Decode(p)
	case *bool:
		if tag != "!!bool" {
			bad()
			return
		}
		err = val.Decode(p)
	case *time.Duration:
		if tag != "!!str" && tag != "!!int" {
			bad()
			return
		}
		*p, err = time.ParseDuration(val.Value)
	}
	if err != nil || !f.ok() {
		bad()
	}
}

// KeyValue is one entry of a YAML mapping.
type KeyValue struct{ Key, Val *yaml.Node }

// maxMergeDepth bounds nested YAML merge keys.
const maxMergeDepth = 8

// Pairs returns the entries of the YAML mapping n, read from the
// configuration file path, as LoadConfig reads its own: in file order,
// with merge keys ("<<: *base") expanded after them (explicit keys win,
// then earlier merged mappings). prefix is the mapping's dotted name and
// a ".", such as "check.rules.", or "" for the top level. A key that is
// not a plain name, a repeated key and a merge key that refers to no
// mapping are errors (*ConfigError). The sections other packages own
// (check) read their mappings with it, so the whole file follows one set
// of rules.
func Pairs(path string, n *yaml.Node, prefix string) ([]KeyValue, []error) {
	l := loader{path: path}
	return l.pairs(n, prefix), l.errs
}

// pairs returns the entries of the mapping n as Pairs does, recording
// its errors.
func (l *loader) pairs(n *yaml.Node, prefix string) []KeyValue {
	var out []KeyValue
	seen := make(map[string]int) // key → line
	l.collect(n, prefix, &out, seen, 0)
	return out
}

func (l *loader) collect(n *yaml.Node, prefix string, out *[]KeyValue, seen map[string]int, depth int) {
	var merges []*yaml.Node
	explicit := depth == 0
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := DerefYAML(n.Content[i]), n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			if explicit {
				name, in := strings.TrimSuffix(prefix, "."), ""
				if name != "" {
					in = keyName(name) + ": "
				}
				l.errorf(k, name, "%skeys must be plain names (got %s)", in, DescribeYAML(k))
			}
			continue
		}
		if k.ShortTag() == "!!merge" {
			merges = append(merges, v)
			continue
		}
		if line, dup := seen[k.Value]; dup {
			if explicit {
				l.errorf(k, prefix+k.Value, "%s is set twice (first at line %d); remove one", keyName(prefix+k.Value), line)
			}
			continue
		}
		seen[k.Value] = k.Line
		*out = append(*out, KeyValue{Key: k, Val: v})
	}
	if depth >= maxMergeDepth {
		return
	}
	for _, m := range merges {
		m = DerefYAML(m)
		var maps []*yaml.Node
		switch m.Kind {
		case yaml.MappingNode:
			maps = []*yaml.Node{m}
		case yaml.SequenceNode:
			for _, e := range m.Content {
				maps = append(maps, DerefYAML(e))
			}
		}
		for _, mm := range maps {
			if mm.Kind != yaml.MappingNode {
				l.errorf(m, "", "a merge key (<<) must refer to a mapping (got %s)", DescribeYAML(mm))
				continue
			}
			l.collect(mm, prefix, out, seen, depth+1)
		}
	}
}

// DerefYAML follows an alias to its anchor (a bounded number of hops).
// It, IsNullYAML and DescribeYAML serve every YAML reader of the
// project: this file's, the sections other packages own (check) and
// artifact frontmatter.
func DerefYAML(n *yaml.Node) *yaml.Node {
	for i := 0; n.Kind == yaml.AliasNode && n.Alias != nil && i < maxMergeDepth; i++ {
		n = n.Alias
	}
	return n
}

// IsNullYAML reports whether n is YAML's null (a key with no value, ~,
// null) or an empty node.
func IsNullYAML(n *yaml.Node) bool {
	return n.Kind == 0 || n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// DescribeYAML names a node's value for an error message about the
// configuration, on one line: "a mapping", "a list", "an alias", a string
// quoted, another scalar as written (quoted when it has spaces), each cut
// by ClipValue.
func DescribeYAML(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		v := ClipValue(n.Value)
		if n.ShortTag() == "!!str" {
			return strconv.Quote(v)
		}
		return keyName(v)
	}
	return "an alias"
}

// ClipValue returns s cut to at most 40 bytes at a character boundary,
// with "…" where it was cut: a value as an error message shows it.
func ClipValue(s string) string {
	if len(s) <= 40 {
		return s
	}
	cut := 40
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// keyName returns s as is when it is printable and has no spaces, else
// quoted, so that a message stays on one line.
func keyName(s string) string {
	if s == "" || strings.ContainsFunc(s, func(r rune) bool { return r == ' ' || !unicode.IsPrint(r) }) {
		return strconv.Quote(s)
	}
	return s
}

// Suggest returns the candidate within edit distance 2 of key (the
// closest, then the first), or "": the "did you mean" of error messages.
func Suggest(key string, candidates []string) string {
	best, bestDist := "", 3
	for _, c := range candidates {
		if d := editDistance(key, c); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return math.MaxInt
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
