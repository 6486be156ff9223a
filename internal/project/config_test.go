package project

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"go.yaml.in/yaml/v3"
)

const configPath = ".ctxpack/config.yaml"

func loadString(t *testing.T, text string) (Config, []Warning, error) {
	t.Helper()
	return LoadConfig(fstest.MapFS{configPath: {Data: []byte(text)}}, configPath)
}

// ignoreExtra compares Configs without the parsed YAML of unknown keys.
var ignoreExtra = cmpopts.IgnoreFields(Config{}, "Extra", "Reserves.Extra", "Pack.Extra", "Walk.Extra", "Embed.Extra")

func TestLoadConfigMissing(t *testing.T) {
	cfg, warnings, err := LoadConfig(fstest.MapFS{}, configPath)
	if err != nil || warnings != nil {
		t.Fatalf("LoadConfig on a missing file = %v, %v; want no error, no warnings", warnings, err)
	}
	if d := cmp.Diff(Defaults(), cfg); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestLoadConfig(t *testing.T) {
	text := `# project settings
tokenizer: cl100k_base
format: markdown
budget: 4000
window: 128000
reserves:
  system: 300
  query: 0
pack:
  strategy: score
  overflow: truncate
  dedup_threshold: 1
  max_chunks_per_doc: 3
  item_cap: 0.5
  prefer_recent: true
  include_metadata: false
walk:
  max_file_bytes: 0x200000
  include_hidden: false
links:
  depth: 2
check:
  rules: {orphan-spec: error}
`
	cfg, warnings, err := loadString(t, text)
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 0 {
		t.Errorf("warnings: %v", warnings)
	}
	want := Config{
		Tokenizer: "cl100k_base", Format: "markdown", Budget: 4000, Window: 128000,
		Reserves: Reserves{System: 300, Query: 0, Response: 500},
		Pack: PackConfig{Strategy: "score", Overflow: "truncate", DedupThreshold: 1, MaxChunksPerDoc: 3,
			ItemCap: 0.5, PreferRecent: true, IncludeMetadata: false},
		Walk:   WalkConfig{MaxFileBytes: 2 << 20, IncludeHidden: false},
		Source: configPath,
	}
	if d := cmp.Diff(want, cfg, ignoreExtra); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}

	// Unknown sections are kept for the features that own them.
	var links struct{ Depth int }
	if ok, err := cfg.Section("links", &links); !ok || err != nil || links.Depth != 2 {
		t.Errorf("Section(links) = %v, %v, %+v", ok, err, links)
	}
	var check struct {
		Rules map[string]string
	}
	if ok, err := cfg.Section("check", &check); !ok || err != nil || check.Rules["orphan-spec"] != "error" {
		t.Errorf("Section(check) = %v, %v, %+v", ok, err, check)
	}
	if ok, err := cfg.Section("sources", &check); ok || err != nil {
		t.Errorf("Section(sources) = %v, %v; want absent", ok, err)
	}
	var bad struct{ Depth []int }
	if _, err := cfg.Section("links", &bad); err == nil || !strings.HasPrefix(err.Error(), "project: .ctxpack/config.yaml:21: links: ") {
		t.Errorf("Section with the wrong shape: error = %v", err)
	}
}

func TestLoadConfigNullsKeepDefaults(t *testing.T) {
	cfg, _, err := loadString(t, "budget:\npack:\nwalk: ~\nreserves:\n  system:\n")
	if err != nil {
		t.Fatal(err)
	}
	want := Defaults()
	want.Source = configPath
	if d := cmp.Diff(want, cfg, ignoreExtra); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	for _, text := range []string{"", "# only a comment\n", "~\n", "---\n"} {
		if _, _, err := loadString(t, text); err != nil {
			t.Errorf("LoadConfig(%q) error: %v", text, err)
		}
	}
}

func TestLoadConfigErrors(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string // each error, in order
	}{
		{"enum", "pack:\n  strategy: greedy\n  overflow: dorp\n",
			[]string{`project: .ctxpack/config.yaml:3: pack.overflow must be one of degrade, drop, truncate, error, allow (got "dorp")`}},
		{"tokenizer", "tokenizer: gpt2\n",
			[]string{`project: .ctxpack/config.yaml:1: tokenizer must be one of approx, cl100k_base, deepseek_v3, gemma3, llama3, o200k_base, qwen3 (got "gpt2")`}},
		{"format", "format: html\n",
			[]string{`project: .ctxpack/config.yaml:1: format must be one of text, markdown, doc, xml, json, mdctx (got "html")`}},
		{"negative int", "budget: -5\n", []string{"project: .ctxpack/config.yaml:1: budget must be a non-negative integer (got -5)"}},
		{"string for int", "budget: lots\n", []string{`project: .ctxpack/config.yaml:1: budget must be a non-negative integer (got "lots")`}},
		{"quoted int", "budget: \"4000\"\n", []string{`project: .ctxpack/config.yaml:1: budget must be a non-negative integer (got "4000")`}},
		{"float for int", "window: 1.5\n", []string{"project: .ctxpack/config.yaml:1: window must be a non-negative integer (got 1.5)"}},
		{"int overflow", "budget: 99999999999999999999\n", []string{"project: .ctxpack/config.yaml:1: budget must be a non-negative integer (got 99999999999999999999)"}},
		{"list for int", "budget: [1]\n", []string{"project: .ctxpack/config.yaml:1: budget must be a non-negative integer (got a list)"}},
		{"fraction zero", "pack:\n  dedup_threshold: 0\n", []string{"project: .ctxpack/config.yaml:2: pack.dedup_threshold must be a number in (0, 1] (got 0)"}},
		{"fraction big", "pack:\n  item_cap: 1.5\n", []string{"project: .ctxpack/config.yaml:2: pack.item_cap must be a number in (0, 1] (got 1.5)"}},
		{"fraction nan", "pack:\n  item_cap: .nan\n", []string{"project: .ctxpack/config.yaml:2: pack.item_cap must be a number in (0, 1] (got .nan)"}},
		{"bool", "pack:\n  prefer_recent: yes\n", []string{`project: .ctxpack/config.yaml:2: pack.prefer_recent must be true or false (got "yes")`}},
		{"section not a mapping", "pack: greedy\n", []string{`project: .ctxpack/config.yaml:1: pack must be a mapping of settings (got "greedy")`}},
		{"top level not a mapping", "- a\n- b\n", []string{"project: .ctxpack/config.yaml:1: the file must be a mapping of settings (got a list)"}},
		{"duplicate key", "budget: 1\nbudget: 2\n", []string{"project: .ctxpack/config.yaml:2: budget is set twice (first at line 1); remove one"}},
		{"duplicate section key", "pack:\n  strategy: score\n  strategy: greedy\n", []string{"project: .ctxpack/config.yaml:3: pack.strategy is set twice (first at line 2); remove one"}},
		{"key not a name", "[a]: 1\n", []string{"project: .ctxpack/config.yaml:1: keys must be plain names (got a list)"}},
		{"section key not a name", "pack:\n  {a: b}: 1\n", []string{"project: .ctxpack/config.yaml:2: pack: keys must be plain names (got a mapping)"}},
		{"syntax", "budget: 1\npack: [\n", []string{"project: .ctxpack/config.yaml:2: invalid YAML: did not find expected node content"}},
		{"syntax in a second document", "budget: 1\n---\n- a\nb: c\n", []string{
			// The line is yaml.v3's: that of the construct around the problem.
			"project: .ctxpack/config.yaml:2: invalid YAML: did not find expected '-' indicator",
		}},
		{"window below reserves", "window: 500\n", []string{
			"project: .ctxpack/config.yaml:1: window 500 leaves no budget after the reserves (system 200 + query 100 + response 500 = 800); raise window or lower reserves",
		}},
		{"embed provider", "embed:\n  provider: openai\n",
			[]string{`project: .ctxpack/config.yaml:2: embed.provider must be one of http, static (got "openai")`}},
		{"embed url", "embed:\n  provider: http\n  url: localhost:11434\n  model: m\n",
			[]string{`project: .ctxpack/config.yaml:3: embed.url must be an http or https URL such as http://127.0.0.1:11434/v1, with no query (got "localhost:11434")`}},
		{"embed needs url and model", "embed:\n  provider: http\n", []string{
			"project: .ctxpack/config.yaml:2: embed.url is required with embed.provider http (the API's base URL, e.g. http://127.0.0.1:11434/v1)",
			"project: .ctxpack/config.yaml:2: embed.model is required with embed.provider http (the model name the server knows, e.g. nomic-embed-text)",
		}},
		{"embed needs path", "budget: 10\nembed: {provider: static}\n", []string{
			"project: .ctxpack/config.yaml:2: embed.path is required with embed.provider static (a model2vec export directory or a text vectors file, relative to the project root)",
		}},
		{"embed timeout without unit", "embed:\n  timeout: 30\n",
			[]string{"project: .ctxpack/config.yaml:2: embed.timeout must be a duration such as 30s or 2m (0 = 60s) (got 30)"}},
		{"embed negative timeout", "embed:\n  timeout: -5s\n",
			[]string{`project: .ctxpack/config.yaml:2: embed.timeout must be a duration such as 30s or 2m (0 = 60s) (got "-5s")`}},
		{"embed key in the wrong place", "embed:\n  api_key_env: sk-abc123\n", []string{
			"project: .ctxpack/config.yaml:2: embed.api_key_env must be the name of an environment variable (letters, digits and _), not the key itself (got a value that is not one)",
		}},
		{"embed batch size", "embed:\n  batch_size: -1\n",
			[]string{"project: .ctxpack/config.yaml:2: embed.batch_size must be a non-negative integer (got -1)"}},
		{"embed not a mapping", "embed: http\n",
			[]string{`project: .ctxpack/config.yaml:1: embed must be a mapping of settings (got "http")`}},
		{"several errors, in file order", "budget: -1\npack:\n  overflow: x\nwalk:\n  max_file_bytes: -3\n", []string{
			"project: .ctxpack/config.yaml:1: budget must be a non-negative integer (got -1)",
			`project: .ctxpack/config.yaml:3: pack.overflow must be one of degrade, drop, truncate, error, allow (got "x")`,
			"project: .ctxpack/config.yaml:5: walk.max_file_bytes must be a non-negative integer (bytes; 0 = 1 MiB) (got -3)",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, _, err := loadString(t, tt.text)
			if err == nil {
				t.Fatal("no error")
			}
			if got := strings.Split(err.Error(), "\n"); !cmp.Equal(tt.want, got) {
				t.Errorf("errors (-want +got):\n%s", cmp.Diff(tt.want, got))
			}
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.Path != configPath {
				t.Errorf("error %v is not a *ConfigError for the file", err)
			}
			if d := cmp.Diff(Defaults(), cfg); d != "" {
				t.Errorf("on error the Config should be Defaults() (-want +got):\n%s", d)
			}
		})
	}
}

func TestLoadConfigWarnings(t *testing.T) {
	text := `budgt: 100
retrieval:
  k: 5
pack:
  stratgy: score
  tiers: [50, 30]
walk:
  follow_symlinks: true
---
budget: 1
`
	cfg, warnings, err := loadString(t, text)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range warnings {
		got = append(got, w.String())
	}
	want := []string{
		`.ctxpack/config.yaml:1: unknown key "budgt" (did you mean "budget"?); kept for later features`,
		`.ctxpack/config.yaml:5: unknown key "pack.stratgy" (did you mean "pack.strategy"?); kept but not used`,
		`.ctxpack/config.yaml:6: unknown key "pack.tiers"; kept but not used`,
		`.ctxpack/config.yaml:8: unknown key "walk.follow_symlinks"; kept but not used`,
		`.ctxpack/config.yaml:10: only the first YAML document is read; this one is ignored`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("warnings (-want +got):\n%s", d)
	}
	// Unknown keys are kept, never silently lost.
	for _, k := range []struct {
		m   map[string]yaml.Node
		key string
	}{{cfg.Extra, "budgt"}, {cfg.Extra, "retrieval"}, {cfg.Pack.Extra, "stratgy"}, {cfg.Pack.Extra, "tiers"}, {cfg.Walk.Extra, "follow_symlinks"}} {
		if _, ok := k.m[k.key]; !ok {
			t.Errorf("unknown key %q was not kept", k.key)
		}
	}
	if cfg.Pack.Strategy != "" || cfg.Budget != 0 { // "" is the mode's own strategy
		t.Errorf("misspelt keys must not take effect: %+v", cfg)
	}
}

func TestLoadConfigMergeKeys(t *testing.T) {
	text := `base: &base
  strategy: score
  overflow: drop
pack:
  <<: *base
  overflow: error
reserves: &r {system: 1, query: 2, response: 3}
`
	cfg, warnings, err := loadString(t, text)
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 0 {
		t.Errorf("warnings: %v", warnings)
	}
	if cfg.Pack.Strategy != "score" || cfg.Pack.Overflow != "error" {
		t.Errorf("merge: got strategy %q overflow %q, want score, error (explicit keys win)", cfg.Pack.Strategy, cfg.Pack.Overflow)
	}
	if cfg.Reserves.Total() != 6 {
		t.Errorf("reserves = %+v", cfg.Reserves)
	}
}

// TestConfigRoundTrip checks that yaml.Marshal writes what LoadConfig reads.
func TestConfigRoundTrip(t *testing.T) {
	cfg := Defaults()
	cfg.Budget = 3000
	cfg.Pack.IncludeMetadata = false
	cfg.Embed = EmbedConfig{Provider: "http", URL: "https://api.openai.com/v1", Model: "text-embedding-3-small",
		APIKeyEnv: "OPENAI_API_KEY", Timeout: 90 * time.Second, MaxInputBytes: 30000}
	cfg.Extra = map[string]yaml.Node{"links": {Kind: yaml.MappingNode, Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Value: "depth"}, {Kind: yaml.ScalarNode, Value: "2"},
	}}}
	data, err := yaml.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	got, warnings, err := loadString(t, string(data))
	if err != nil || len(warnings) != 0 {
		t.Fatalf("reading back:\n%s\nwarnings %v, error %v", data, warnings, err)
	}
	cfg.Source = configPath
	if d := cmp.Diff(cfg, got, ignoreExtra); d != "" {
		t.Errorf("(-want +got):\n%s\nfile:\n%s", d, data)
	}
	var links struct{ Depth int }
	if ok, err := got.Section("links", &links); !ok || err != nil || links.Depth != 2 {
		t.Errorf("Section(links) after a round trip = %v, %v, %+v", ok, err, links)
	}
}

func TestValidate(t *testing.T) {
	if err := Defaults().Validate(); err != nil {
		t.Errorf("Defaults().Validate() = %v", err)
	}
	cfg := Defaults()
	cfg.Pack.Overflow = "dorp"
	cfg.Pack.ItemCap = 0
	cfg.Window = 100
	want := strings.Join([]string{
		`project: pack.overflow must be one of degrade, drop, truncate, error, allow (got "dorp")`,
		`project: pack.item_cap must be a number in (0, 1] (got 0)`,
		`project: window 100 leaves no budget after the reserves (system 200 + query 100 + response 500 = 800); raise window or lower reserves`,
	}, "\n")
	if err := cfg.Validate(); err == nil || err.Error() != want {
		t.Errorf("Validate() = %v\nwant %s", err, want)
	}
	var zero Config
	if err := zero.Validate(); err == nil {
		t.Error("the zero Config should not validate")
	}
}

func TestReservesTotalSaturates(t *testing.T) {
	r := Reserves{System: 1 << 62, Query: 1 << 62, Response: 1 << 62}
	if r.Total() <= 0 {
		t.Errorf("Total() = %d, want saturation", r.Total())
	}
}

func TestLoadConfigEmbed(t *testing.T) {
	text := `embed:
  provider: http
  url: http://127.0.0.1:11434/v1
  model: nomic-embed-text
  api_key_env: OLLAMA_KEY
  batch_size: 32
  timeout: 2m30s
  max_input_bytes: 4096
`
	cfg, warnings, err := loadString(t, text)
	if err != nil || len(warnings) != 0 {
		t.Fatalf("warnings %v, error %v", warnings, err)
	}
	want := EmbedConfig{Provider: "http", URL: "http://127.0.0.1:11434/v1", Model: "nomic-embed-text", APIKeyEnv: "OLLAMA_KEY",
		BatchSize: 32, Timeout: 150 * time.Second, MaxInputBytes: 4096}
	if d := cmp.Diff(want, cfg.Embed); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}

	cfg, warnings, err = loadString(t, "embed:\n  provider: static\n  path: models/potion\n")
	if err != nil || len(warnings) != 0 || !cmp.Equal(cfg.Embed, EmbedConfig{Provider: "static", Path: "models/potion"}) {
		t.Errorf("static: %+v, %v, %v", cfg.Embed, warnings, err)
	}
	if cfg, _, _ := loadString(t, "budget: 1\n"); !cmp.Equal(cfg.Embed, EmbedConfig{}) {
		t.Errorf("no embed section: %+v; want the zero value (no provider)", cfg.Embed)
	}
}

func TestLoadConfigEmbedWarnings(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"embed:\n  provider: static\n  path: v.txt\n  url: http://x/v1\n  modle: m\n  timeout: 1s\n", []string{
			`.ctxpack/config.yaml:4: embed.url is not used with embed.provider static`,
			`.ctxpack/config.yaml:5: unknown key "embed.modle" (did you mean "embed.model"?); kept but not used`,
			`.ctxpack/config.yaml:6: embed.timeout is not used with embed.provider static`,
		}},
		{"embed:\n  model: m\n", []string{
			`.ctxpack/config.yaml:2: embed.model is set but embed.provider is not; semantic search is off`,
		}},
		{"embed:\n  provider: http\n  url: http://x/v1\n  model: m\n  path: p\n", []string{
			`.ctxpack/config.yaml:5: embed.path is not used with embed.provider http`,
		}},
		{"embd:\n  provider: http\n", []string{
			`.ctxpack/config.yaml:1: unknown key "embd" (did you mean "embed"?); kept for later features`,
		}},
	}
	for _, tt := range tests {
		_, warnings, err := loadString(t, tt.text)
		if err != nil {
			t.Errorf("%q: %v", tt.text, err)
			continue
		}
		var got []string
		for _, w := range warnings {
			got = append(got, w.String())
		}
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("%q: warnings (-want +got):\n%s", tt.text, d)
		}
	}
}

// TestEmbedConfigValidate checks the embed settings of a Config changed
// after loading; TestConfigRoundTrip writes and reads them.
func TestEmbedConfigValidate(t *testing.T) {
	cfg := Defaults()
	cfg.Embed = EmbedConfig{Provider: "http", URL: "https://api.openai.com/v1", Model: "text-embedding-3-small",
		APIKeyEnv: "OPENAI_API_KEY", Timeout: 90 * time.Second, MaxInputBytes: 30000}
	if err := cfg.Validate(); err != nil {
		t.Errorf("Validate() = %v", err)
	}

	cfg.Embed = EmbedConfig{Provider: "onnx", Timeout: -time.Second}
	want := strings.Join([]string{
		`project: embed.provider must be one of http, static (got "onnx")`,
		`project: embed.timeout must be a duration such as 30s or 2m (0 = 60s) (got "-1s")`,
	}, "\n")
	if err := cfg.Validate(); err == nil || err.Error() != want {
		t.Errorf("Validate() = %v\nwant %s", err, want)
	}
	cfg.Embed = EmbedConfig{Provider: "static", APIKeyEnv: "sk-secret"}
	want = strings.Join([]string{
		`project: embed.api_key_env must be the name of an environment variable (letters, digits and _), not the key itself (got a value that is not one)`,
		`project: embed.path is required with embed.provider static (a model2vec export directory or a text vectors file, relative to the project root)`,
	}, "\n")
	if err := cfg.Validate(); err == nil || err.Error() != want {
		t.Errorf("Validate() = %v\nwant %s", err, want)
	}
}
