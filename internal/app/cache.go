package app

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/ctxpack/ctxpack/internal/cache"
	"github.com/ctxpack/ctxpack/internal/chunk"
	"github.com/ctxpack/ctxpack/internal/index"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/render"
	"github.com/ctxpack/ctxpack/internal/retrieve"
	"go.yaml.in/yaml/v3"
)

// The assembly cache (DESIGN §2) keeps retrieval results in
// .ctxpack/cache/assemblies/ under the project root, keyed by the target,
// the state root of the inputs and a hash of everything else the output
// depends on. It can never change an answer, only its speed: a key that
// cannot be made exactly, or a build that cannot be identified, turns the
// cache off; an entry that does not verify is a miss; a failure to write
// one is ignored.

// assemblyCacheFormat changes when the meaning of an entry does (what
// the key covers, how a Result is stored).
//
//	1: the plan and the output
//	2: the plan alone, the output rebuilt from it; the engine's options
//	   and the tiers are left out of the key (the request and the
//	   configuration in it decide them)
const assemblyCacheFormat = 2

// cachedResult is a Result as the cache stores it: the plan, from which
// the output is rebuilt exactly (see output).
type cachedResult struct {
	Plan Plan `json:"plan"`
	// JSON says the output is the plan encoded (the json format); else it
	// is the plan's content.
	JSON bool `json:"json,omitempty"`
}

// output is the Result's output, as the engine made it (pack.Assemble):
// the plan encoded for the json format, the content for the others.
func (c *cachedResult) output() ([]byte, error) {
	if c.JSON {
		return render.EncodePlan(&c.Plan)
	}
	return []byte(c.Plan.Content), nil
}

// keyOf is the part of an assembly's cache key that comes from the
// request: every field of Request by name, so that a new field is in the
// key unless left out here, but for those that cannot change the output:
// NoCache, the cache switch itself, FreeText, which chooses the mode
// before any assembly, Output, which only a pack reads (and packs are not
// cached), and the Wait and Progress of Index.
func keyOf(req Request) map[string]any {
	m, _ := keyable(req)
	delete(m, "NoCache")
	delete(m, "FreeText")
	delete(m, "FilesFrom")
	delete(m, "Output") // where a pack is written: retrieval's answer is the same
	m["Index"] = []any{req.Index.File, req.Index.NoUpdate}
	return m
}

// retrievalKey is the cache key of a retrieval, "" for none: the query,
// the state root of the index and the artifacts (retrieval.StateRoot:
// the artifact parts come from the query, the artifacts and the best
// chunk's relevance, all in the key), the ranking (each chunk with its content
// id, relevance and factors: the parts are those texts), the request, the
// retrieval options (with the embedder's ID, which the configuration
// alone does not give), the whole configuration, the warnings known so
// far (they are part of the plan), ctxpack's build and the versions of
// the chunker and the index. The engine's options (p.options) and the
// tiers are not in it: they are made from the request and the
// configuration alone, so o, which is p.options(req), adds nothing.
//
// There is no key (no caching) with req.NoCache, when the build cannot be
// identified, when a part of the key is not exact JSON, and with
// req.Index.NoUpdate: the files may then differ from the index, and
// which chunks survive that is decided by reading them.
func (p *Project) retrievalKey(query, stateRoot string, req Request, r *retrieve.Ranking, warnings []string) string {
	build := buildID()
	if req.NoCache || req.Index.NoUpdate || build == "" || stateRoot == "" {
		return ""
	}
	ropt, _, err := p.retrieval()
	if err != nil {
		return ""
	}
	retrievalOptions, ok := keyable(ropt)
	if !ok {
		return ""
	}
	config, err := yaml.Marshal(p.Config)
	if err != nil {
		return ""
	}
	k, err := cache.Key(
		"ctxpack assembly", assemblyCacheFormat, build,
		fmt.Sprintf("chunk=%d/%s index=%d", chunk.Version, chunk.Backend, index.FormatVersion),
		"retrieval", query, stateRoot, r,
		keyOf(req), retrievalOptions,
		string(config), warnings, p.Warnings)
	if err != nil {
		return ""
	}
	return k
}

// keyable returns the exported fields of the struct v by name, for a
// cache key: a function becomes whether it is set, an interface value
// with an ID() (an embed.Embedder) that ID. ok is false when v is not a
// struct.
func keyable(v any) (map[string]any, bool) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Struct {
		return nil, false
	}
	m := map[string]any{}
	for i := range rv.NumField() {
		f := rv.Type().Field(i)
		if !f.IsExported() {
			continue
		}
		fv := rv.Field(i)
		switch fv.Kind() {
		case reflect.Func:
			m[f.Name] = !fv.IsNil()
		case reflect.Interface:
			if fv.IsNil() {
				m[f.Name] = nil
				continue
			}
			if id, ok := fv.Interface().(interface{ ID() string }); ok {
				m[f.Name] = "id:" + id.ID()
			} else {
				m[f.Name] = fv.Interface() // cache.Key refuses what JSON cannot encode
			}
		default:
			m[f.Name] = fv.Interface()
		}
	}
	return m, true
}

// assemblyCache is the project's assembly cache.
func (p *Project) assemblyCache() *cache.Store {
	return cache.New(filepath.Join(p.Root, project.DirCtxpack, "cache", "assemblies"), cache.DefaultMaxBytes)
}

// cacheGet returns the cached result of key, if there is one that
// verifies; ok false is a miss (key "" is always one).
func (p *Project) cacheGet(key string) (*Result, bool) {
	if key == "" {
		return nil, false
	}
	var c cachedResult
	if !p.assemblyCache().Get(key, &c) {
		return nil, false
	}
	out, err := c.output()
	if err != nil {
		return nil, false
	}
	return &Result{Plan: c.Plan, Output: out}, true
}

// cachePut stores res as the result of key (unless key is "") and
// returns it. A result whose output is not rebuilt exactly from its plan
// is not stored, and a failure to store is ignored: the answer is the
// same without the cache.
func (p *Project) cachePut(key string, res *Result) *Result {
	if key == "" {
		return res
	}
	c := cachedResult{Plan: res.Plan, JSON: !bytes.Equal(res.Output, []byte(res.Plan.Content))}
	if out, err := c.output(); err == nil && bytes.Equal(out, res.Output) {
		p.keepStateIgnored()
		_ = p.assemblyCache().Put(key, c)
	}
	return res
}

// buildID identifies the running build of ctxpack for cache keys: its
// module version and dependencies, its VCS revision and, for a build that
// carries neither a release version nor a clean revision (go run, go
// test, a modified tree), the size and modification time of its
// executable. "" when it cannot be told, which turns caching off.
var buildID = sync.OnceValue(func() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s@%s %s %s\n", bi.Main.Path, bi.Main.Version, bi.Main.Sum, bi.GoVersion)
	for _, d := range bi.Deps {
		fmt.Fprintf(&b, "%s@%s %s\n", d.Path, d.Version, d.Sum)
	}
	rev, modified := "", ""
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
		if s.Key == "CGO_ENABLED" || s.Key == "-tags" || strings.HasPrefix(s.Key, "vcs.") {
			fmt.Fprintf(&b, "%s=%s\n", s.Key, s.Value)
		}
	}
	released := bi.Main.Version != "" && bi.Main.Version != "(devel)"
	if !released && (rev == "" || modified != "false") {
		exe, err := os.Executable()
		if err != nil {
			return ""
		}
		st, err := os.Stat(exe)
		if err != nil {
			return ""
		}
		fmt.Fprintf(&b, "exe size=%d mtime=%d\n", st.Size(), st.ModTime().UnixNano())
	}
	return b.String()
})
