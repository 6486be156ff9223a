package embed

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/ctxpack/ctxpack/internal/project"
)

// Embedder turns texts into vectors.
type Embedder interface {
	// ID is a stable identity that changes whenever the vectors would
	// (another model, server, file or tokenization): stored vectors are
	// keyed by it.
	ID() string
	// Embed returns one vector per text, in order, all of one non-zero
	// length, every component finite. Vectors need not be unit length.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// Config is the embed section of a project's configuration.
type Config = project.EmbedConfig

// FromConfig builds the Embedder c describes: nil, with no error, when c
// names no provider. root is the project root (an OS path), against which
// a relative static path is resolved; getenv reads the variable named by
// api_key_env (nil means os.Getenv), and a named variable that is empty
// is an error. A static embedder is loaded here, so its files are read
// (and hashed) once.
func FromConfig(c Config, root string, getenv func(string) string) (Embedder, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	switch c.Provider {
	case "":
		return nil, nil
	case "http":
		if c.URL == "" || c.Model == "" {
			return nil, fmt.Errorf("embed: provider http needs embed.url and embed.model")
		}
		key := ""
		if c.APIKeyEnv != "" {
			if key = getenv(c.APIKeyEnv); key == "" {
				return nil, fmt.Errorf("embed: embed.api_key_env names %s, which is not set", c.APIKeyEnv)
			}
		}
		h, err := NewHTTP(HTTPConfig{
			BaseURL: c.URL, Model: c.Model, APIKey: key,
			BatchSize: c.BatchSize, Timeout: c.Timeout, MaxInputBytes: c.MaxInputBytes,
		})
		if err != nil {
			return nil, err
		}
		return h, nil
	case "static":
		if c.Path == "" {
			return nil, fmt.Errorf("embed: provider static needs embed.path")
		}
		p := filepath.FromSlash(c.Path)
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, p)
		}
		s, err := loadStaticShared(p)
		if err != nil {
			return nil, err
		}
		return s, nil
	}
	return nil, fmt.Errorf("embed: unknown provider %q; want one of %s", c.Provider, strings.Join(project.EmbedProviders(), ", "))
}

// statics are the static embeddings loaded in this process, by path, with
// the stamp of their files: a long-lived process (ctxpack serve opens the
// project for every request) loads a model once, and again only when its
// files change. The lock is held while a model loads, so that requests
// arriving together load it once, not once each.
var statics struct {
	sync.Mutex
	m map[string]staticEntry
}

type staticEntry struct {
	stamp string
	s     *Static
}

// maxStatics bounds the models kept.
const maxStatics = 4

func loadStaticShared(path string) (*Static, error) {
	stamp, err := fileStamp(path)
	if err != nil {
		return LoadStatic(path) // it reports the error
	}
	statics.Lock()
	defer statics.Unlock()
	if e, ok := statics.m[path]; ok && e.stamp == stamp {
		return e.s, nil
	}
	s, err := LoadStatic(path)
	if err != nil {
		return nil, err
	}
	if statics.m == nil || len(statics.m) >= maxStatics {
		statics.m = map[string]staticEntry{}
	}
	statics.m[path] = staticEntry{stamp, s}
	return s, nil
}

// fileStamp is the size and modification time of path and, for a
// directory, of each file in it.
func fileStamp(path string) (string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d %d;", st.Size(), st.ModTime().UnixNano())
	if st.IsDir() {
		entries, err := os.ReadDir(path)
		if err != nil {
			return "", err
		}
		for _, e := range entries {
			info, err := e.Info()
			if err != nil {
				return "", err
			}
			fmt.Fprintf(&b, "%s %d %d;", e.Name(), info.Size(), info.ModTime().UnixNano())
		}
	}
	return b.String(), nil
}
