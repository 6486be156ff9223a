package app

import (
	"context"
	"maps"
	"strconv"
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/fakesecrets"

	"github.com/ctxpack/ctxpack/internal/project"
)

// fakeKey is an AWS access key id drawn from seed (no literal secret is
// in the repository).
func fakeKey(seed uint64) string { return fakesecrets.Value("aws-access-key-id", seed) }

// TestRedaction: the facade redacts by default in every assembly and in
// show and summarize, lists what it found, leaves secret files out with a
// reason, and its switches (secrets.redact, --no-redact, secrets.allow,
// secrets.include) do what they say.
func TestRedaction(t *testing.T) {
	key, envKey := fakeKey(1), fakeKey(2)
	files := map[string]string{
		"main.go":                       "package main\n\n// the deploy key\nconst key = \"" + key + "\"\n",
		".env":                          "AWS_ACCESS_KEY_ID=" + envKey + "\n",
		".ctxpack/work/tasks/TASK-1.md": "---\nid: TASK-1\ntitle: Rotate keys\nstatus: in_progress\n---\n# Rotate the deploy key\n\nThe old key is " + key + ".\n",
	}
	ctx := context.Background()
	pack := func(t *testing.T, dir string, req Request) *Result {
		t.Helper()
		p, err := Open(dir, "")
		if err != nil {
			t.Fatal(err)
		}
		res, err := p.Pack(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}

	t.Run("default", func(t *testing.T) {
		dir := writeProject(t, clone(files))
		res := pack(t, dir, Request{Budget: 4000, Format: "json"})
		if strings.Contains(string(res.Output), key) || strings.Contains(string(res.Output), envKey) {
			t.Fatalf("a key is in the output:\n%s", res.Output)
		}
		if !strings.Contains(res.Plan.Content, "[redacted: aws-access-key-id]") {
			t.Errorf("no marker in the content:\n%s", res.Plan.Content)
		}
		var got []string
		for _, r := range res.Plan.Redactions {
			got = append(got, r.Path+":"+strconv.Itoa(r.Line)+" "+r.Rule)
		}
		if want := []string{"main.go:4 aws-access-key-id", ".ctxpack/work/tasks/TASK-1.md:8 aws-access-key-id"}; strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("redactions %v, want %v", got, want)
		}
		if !hasWarning(res.Plan.Warnings, "skipped .env: "+project.SecretFileReason) {
			t.Errorf("warnings %q do not say .env is left out and how to take it in", res.Plan.Warnings)
		}
		if !hasWarning(res.Plan.Warnings, "redacted 2 secrets in 2 parts (aws-access-key-id 2)") {
			t.Errorf("warnings %q have no summary", res.Plan.Warnings)
		}

		p, _ := Open(dir, "")
		v, warns, err := p.Show("TASK-1", "full", "text")
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(v.Output), key) || !hasWarning(warns, "redacted 1 secret in .ctxpack/work/tasks/TASK-1.md") {
			t.Errorf("show: %s\nwarnings %q", v.Output, warns)
		}
		s, err := p.Summarize(ctx, "main.go", SummarizeOptions{Level: "full"})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(s.Text, key) || !hasWarning(s.Warnings, "redacted 1 secret in main.go") {
			t.Errorf("summarize: %q, warnings %q", s.Text, s.Warnings)
		}
		for _, target := range []string{"TASK-1", "rotate the deploy key"} {
			p, _ := Open(dir, "")
			res, err := p.Context(ctx, target, Request{Budget: 4000, NoCache: true})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(res.Output), key) || len(res.Plan.Redactions) == 0 {
				t.Errorf("context %q: key in the output or no redactions:\n%s", target, res.Output)
			}
		}
	})

	t.Run("no-redact", func(t *testing.T) {
		dir := writeProject(t, clone(files))
		res := pack(t, dir, Request{Budget: 4000, NoRedact: true})
		if !strings.Contains(string(res.Output), key) || len(res.Plan.Redactions) != 0 {
			t.Errorf("--no-redact: the key is not kept as it is:\n%s", res.Output)
		}
		if strings.Contains(string(res.Output), envKey) {
			t.Errorf("--no-redact brought in .env, which secrets.include does")
		}
	})

	t.Run("config", func(t *testing.T) {
		for _, c := range []struct {
			name, config string
			keyKept      bool
			envShown     bool
		}{
			{"redact off", "secrets:\n  redact: false\n", true, false},
			{"path allowed", "secrets:\n  allow: [\"*.go\"]\n", true, false},
			{"include .env", "secrets:\n  include: [.env]\n", false, true},
		} {
			t.Run(c.name, func(t *testing.T) {
				fs := clone(files)
				fs[".ctxpack/config.yaml"] = c.config
				dir := writeProject(t, fs)
				res := pack(t, dir, Request{Budget: 4000})
				out := string(res.Output)
				if strings.Contains(out, key) != c.keyKept {
					t.Errorf("key kept = %v, want %v:\n%s", !c.keyKept, c.keyKept, out)
				}
				if strings.Contains(out, envKey) {
					t.Errorf(".env's key is in the output")
				}
				if strings.Contains(out, "AWS_ACCESS_KEY_ID=[redacted: aws-access-key-id]") != c.envShown {
					t.Errorf(".env shown redacted = %v, want %v:\n%s", !c.envShown, c.envShown, out)
				}
			})
		}
		// A fingerprint from the plan keeps that value.
		dir := writeProject(t, clone(files))
		fp := pack(t, dir, Request{Budget: 4000}).Plan.Redactions[0].Fingerprint
		fs := clone(files)
		fs[".ctxpack/config.yaml"] = "secrets:\n  allow: [" + fp + "]\n"
		if out := string(pack(t, writeProject(t, fs), Request{Budget: 4000}).Output); !strings.Contains(out, key) {
			t.Errorf("the allowed fingerprint %s did not keep its value:\n%s", fp, out)
		}
		for _, bad := range []string{"secrets:\n  allow: [\"fp:12\"]\n", "secrets:\n  include: [\"\"]\n", "secrets:\n  redcat: true\n"} {
			fs := clone(files)
			fs[".ctxpack/config.yaml"] = bad
			p, err := Open(writeProject(t, fs), "")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Pack(ctx, Request{Budget: 4000}); err == nil || !strings.Contains(err.Error(), "config.yaml:") {
				t.Errorf("config %q: err = %v, want one naming the file and line", bad, err)
			}
		}
	})
}

func clone(m map[string]string) map[string]string { return maps.Clone(m) }

func hasWarning(ws []string, prefix string) bool {
	for _, w := range ws {
		if strings.HasPrefix(w, prefix) {
			return true
		}
	}
	return false
}

// TestStoreViewsRedact: what the store's views show (the CLI's memory
// show, the MCP store tools) is redacted as an assembly is, and is kept
// whole in the store.
func TestStoreViewsRedact(t *testing.T) {
	key := fakeKey(3)
	ctx := context.Background()
	for _, c := range []struct {
		config string
		kept   bool
	}{{"", false}, {"secrets:\n  redact: false\n", true}} {
		files := map[string]string{"README.md": "# x\n"}
		if c.config != "" {
			files[".ctxpack/config.yaml"] = c.config
		}
		p, err := Open(writeProject(t, files), "")
		if err != nil {
			t.Fatal(err)
		}
		st, err := p.Store(true)
		if err != nil {
			t.Fatal(err)
		}
		added, err := st.AddMemory(ctx, MemoryInput{Content: "the staging deploy key is " + key, Category: "fact"})
		if err != nil {
			t.Fatal(err)
		}
		got, err := st.Memory(ctx, added.ID)
		if err != nil {
			t.Fatal(err)
		}
		list, err := st.Memories(ctx, "")
		if err != nil || len(list) != 1 {
			t.Fatalf("Memories = %v, %v", list, err)
		}
		for _, v := range []MemoryView{added, got, list[0]} {
			if strings.Contains(v.Content, key) != c.kept {
				t.Errorf("config %q: view %q; want the key kept = %v", c.config, v.Content, c.kept)
			}
		}
		st.Close()
	}
}
