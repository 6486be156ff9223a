package cache

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ctxpack/ctxpack/internal/project"
)

// DefaultMaxBytes bounds a cache directory unless New is told otherwise.
const DefaultMaxBytes = 64 << 20

// formatVersion is the version of the entry layout; entries of another
// version are misses.
const formatVersion = 1

// tmpPrefix starts the names of temporary files; staleTmp is the age at
// which one is taken for a crashed writer's and removed.
const (
	tmpPrefix = ".tmp-"
	staleTmp  = time.Hour
)

// ErrNotExact is returned by Put for a value that JSON would not give back
// exactly.
var ErrNotExact = errors.New("cache: the value does not survive JSON exactly (a string is not valid UTF-8)")

// Store is a cache directory.
type Store struct {
	dir string
	max int64
	// Now is the clock used to touch entries and to age temporary files;
	// nil means time.Now. It never changes what Get returns.
	Now func() time.Time
}

// New returns the cache in dir (an OS path; created by the first Put),
// holding at most maxBytes of entries (0 means DefaultMaxBytes).
func New(dir string, maxBytes int64) *Store {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	return &Store{dir: dir, max: maxBytes}
}

// Dir returns the cache's directory.
func (s *Store) Dir() string { return s.dir }

// entry is the file of one entry.
type entry struct {
	Format int             `json:"format"`
	Key    string          `json:"key"`    // "sha256:" of the key
	Digest string          `json:"digest"` // "sha256:" of Data, as stored
	Data   json.RawMessage `json:"data"`
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(h[:])
}

// path is the file of key: the hex sha256 of the key.
func (s *Store) path(key string) string {
	h := sha256.Sum256([]byte(key))
	return filepath.Join(s.dir, hex.EncodeToString(h[:])+".json")
}

// Get decodes the entry of key into v and reports whether there was one
// that verified. A missing entry is a miss; one that does not verify is a
// miss and is deleted.
func (s *Store) Get(key string, v any) bool {
	p := s.path(key)
	// An entry is a regular file no larger than the bound (Put stores no
	// larger one): anything else, a named pipe or a link to a device, is
	// never read.
	data, err := project.ReadPath(p, s.max)
	if err != nil {
		return false
	}
	var e entry
	if err := json.Unmarshal(data, &e); err != nil || e.Format != formatVersion ||
		e.Key != sum([]byte(key)) || e.Digest != sum(e.Data) {
		os.Remove(p)
		return false
	}
	if err := json.Unmarshal(e.Data, v); err != nil {
		os.Remove(p)
		return false
	}
	now := s.now()
	_ = os.Chtimes(p, now, now) // recently used: evicted last
	return true
}

// Put stores v, encoded as JSON, as the entry of key, and then evicts the
// least recently used entries beyond the size bound. A value larger than
// the bound is not stored.
func (s *Store) Put(key string, v any) error {
	if !exact(reflect.ValueOf(v)) {
		return ErrNotExact
	}
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("cache: encode: %w", err)
	}
	file, err := json.Marshal(entry{Format: formatVersion, Key: sum([]byte(key)), Digest: sum(data), Data: data})
	if err != nil {
		return fmt.Errorf("cache: encode: %w", err)
	}
	if int64(len(file)) > s.max {
		return nil
	}
	if err := project.WriteFileAtomic(s.path(key), file, tmpPrefix+"*", 0o644); err != nil {
		return fmt.Errorf("cache: write: %w", err)
	}
	now := s.now()
	_ = os.Chtimes(s.path(key), now, now) // the entry's age is by the store's clock
	return s.evict()
}

// evict removes the least recently used entries until the directory holds
// at most s.max bytes of them, and temporary files left by crashes.
func (s *Store) evict() error {
	des, err := os.ReadDir(s.dir)
	if err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	type file struct {
		name string
		size int64
		mod  time.Time
	}
	var files []file
	var total int64
	now := s.now()
	for _, de := range des {
		info, err := de.Info()
		if err != nil || !info.Mode().IsRegular() {
			continue // removed meanwhile, or not ours
		}
		name := de.Name()
		switch {
		case strings.HasPrefix(name, tmpPrefix):
			if now.Sub(info.ModTime()) > staleTmp {
				os.Remove(filepath.Join(s.dir, name))
			}
		case strings.HasSuffix(name, ".json"):
			files = append(files, file{name, info.Size(), info.ModTime()})
			total += info.Size()
		}
	}
	if total <= s.max {
		return nil
	}
	slices.SortFunc(files, func(a, b file) int {
		return cmp.Or(a.mod.Compare(b.mod), strings.Compare(a.name, b.name))
	})
	for _, f := range files {
		if total <= s.max {
			break
		}
		if err := os.Remove(filepath.Join(s.dir, f.name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("cache: evict: %w", err)
		}
		total -= f.size
	}
	return nil
}

func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// exact reports whether JSON gives v back exactly as far as strings go:
// every string in it, map keys included, is valid UTF-8. (Floats
// round-trip exactly; NaN and infinities fail to encode.)
func exact(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.String:
		return utf8.ValidString(v.String())
	case reflect.Pointer, reflect.Interface:
		return v.IsNil() || exact(v.Elem())
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() && !exact(v.Field(i)) {
				return false
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return true // []byte is base64: exact
		}
		for i := range v.Len() {
			if !exact(v.Index(i)) {
				return false
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			if !exact(it.Key()) || !exact(it.Value()) {
				return false
			}
		}
	}
	return true
}

// Key joins the parts of a cache key canonically: each part as JSON, one
// per line, map keys sorted. Parts that differ make different keys; a part
// that JSON cannot tell apart from another (a string that is not valid
// UTF-8) is refused with ErrNotExact, so the caller goes without the cache.
func Key(parts ...any) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, p := range parts {
		if !exact(reflect.ValueOf(p)) {
			return "", ErrNotExact
		}
		if err := enc.Encode(p); err != nil {
			return "", fmt.Errorf("cache: key: %w", err)
		}
	}
	return b.String(), nil
}
