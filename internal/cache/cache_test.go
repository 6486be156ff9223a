package cache

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

type value struct {
	Text  string             `json:"text"`
	Bytes []byte             `json:"bytes"`
	Score *float64           `json:"score,omitempty"`
	Parts map[string]float64 `json:"parts"`
}

func sample(i int) value {
	s := 0.1 * float64(i)
	return value{
		Text:  fmt.Sprintf("entry %d — ünïcode", i),
		Bytes: []byte{0xff, 0x00, byte(i)}, // not UTF-8: kept exactly as []byte
		Score: &s,
		Parts: map[string]float64{"b": 1.0 / 3, "a": float64(i)},
	}
}

// onlyEntry returns the path of the one entry in dir.
func onlyEntry(t *testing.T, dir string) string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(m) != 1 {
		t.Fatalf("want one entry in %s, got %v (%v)", dir, m, err)
	}
	return m[0]
}

func TestRoundTrip(t *testing.T) {
	s := New(filepath.Join(t.TempDir(), "c"), 0)
	var v value
	if s.Get("k", &v) {
		t.Fatal("hit in an empty cache")
	}
	want := sample(7)
	if err := s.Put("k", want); err != nil {
		t.Fatal(err)
	}
	if !s.Get("k", &v) {
		t.Fatal("miss after Put")
	}
	if fmt.Sprint(v.Text, v.Bytes, *v.Score, v.Parts) != fmt.Sprint(want.Text, want.Bytes, *want.Score, want.Parts) {
		t.Errorf("got %+v, want %+v", v, want)
	}
	var other value
	if s.Get("k2", &other) {
		t.Error("hit for another key")
	}
}

// TestCorrupt: an entry that does not verify is a miss, not an error, and
// is deleted.
func TestCorrupt(t *testing.T) {
	tests := []struct {
		name   string
		mangle func(string) string
	}{
		{"truncated", func(s string) string { return s[:len(s)/2] }},
		{"empty", func(string) string { return "" }},
		{"not json", func(string) string { return "garbage" }},
		{"content edited", func(s string) string { return strings.Replace(s, "entry", "Entry", 1) }},
		{"digest edited", func(s string) string { return strings.Replace(s, `"digest":"sha256:`, `"digest":"sha256:0`, 1) }},
		{"another key", func(s string) string { return strings.Replace(s, `"key":"sha256:`, `"key":"sha256:0`, 1) }},
		{"other format", func(s string) string { return strings.Replace(s, `"format":1`, `"format":2`, 1) }},
		{"data not a value", func(s string) string {
			// A valid entry whose data does not decode into the value.
			i := strings.Index(s, `"data":`)
			return s[:i] + `"data":[1,2]}`
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			s := New(dir, 0)
			if err := s.Put("k", sample(1)); err != nil {
				t.Fatal(err)
			}
			p := onlyEntry(t, dir)
			data, _ := os.ReadFile(p)
			if err := os.WriteFile(p, []byte(tt.mangle(string(data))), 0o666); err != nil {
				t.Fatal(err)
			}
			var v value
			if s.Get("k", &v) {
				t.Fatal("a corrupt entry was a hit")
			}
			if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the corrupt entry was kept (%v)", err)
			}
			// The next Put heals it.
			if err := s.Put("k", sample(1)); err != nil || !s.Get("k", &v) {
				t.Errorf("no hit after Put again (%v)", err)
			}
		})
	}
}

func TestNotExact(t *testing.T) {
	s := New(t.TempDir(), 0)
	v := sample(1)
	v.Text = "bad \xff byte"
	if err := s.Put("k", v); !errors.Is(err, ErrNotExact) {
		t.Errorf("Put of an invalid string: got %v, want ErrNotExact", err)
	}
	v = sample(1)
	v.Parts = map[string]float64{"\xfe": 1}
	if err := s.Put("k", v); !errors.Is(err, ErrNotExact) {
		t.Errorf("Put of an invalid map key: got %v, want ErrNotExact", err)
	}
	if _, err := Key("query \xff"); !errors.Is(err, ErrNotExact) {
		t.Errorf("Key of an invalid string: got %v, want ErrNotExact", err)
	}
}

func TestKey(t *testing.T) {
	a, err := Key("q", map[string]int{"b": 2, "a": 1}, 3)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Key("q", map[string]int{"a": 1, "b": 2}, 3)
	if a != b {
		t.Errorf("map order reached the key:\n%s\n%s", a, b)
	}
	for _, parts := range [][]any{{"q", map[string]int{"a": 1, "b": 2}, 4}, {"q\n", map[string]int{"a": 1, "b": 2}, 3}, {"q", 3}} {
		if k, _ := Key(parts...); k == a {
			t.Errorf("Key(%v) = Key of other parts", parts)
		}
	}
}

// TestEvict: the directory stays within its bound, least recently used
// entries go first, and an entry larger than the bound is not stored.
func TestEvict(t *testing.T) {
	dir := t.TempDir()
	clock := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	s := New(dir, 1) // measure one entry first
	s.Now = func() time.Time { clock = clock.Add(time.Minute); return clock }
	big := value{Text: strings.Repeat("x", 1000)}
	if err := s.Put("big", big); err != nil {
		t.Fatal(err)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "*.json")); len(m) != 0 {
		t.Fatalf("an entry over the bound was stored: %v", m)
	}

	s.max = 1 << 20
	if err := s.Put("probe", big); err != nil {
		t.Fatal(err)
	}
	info, _ := os.Stat(onlyEntry(t, dir))
	os.Remove(onlyEntry(t, dir))
	s.max = 3*info.Size() + info.Size()/2 // room for three entries

	put := func(k string) {
		t.Helper()
		if err := s.Put(k, big); err != nil {
			t.Fatal(err)
		}
	}
	get := func(k string) bool {
		var v value
		return s.Get(k, &v)
	}
	put("a")
	put("b")
	put("c")
	if !get("a") { // a is now the most recently used
		t.Fatal("a was evicted too early")
	}
	put("d") // evicts b, the least recently used
	for k, want := range map[string]bool{"a": true, "b": false, "c": true, "d": true} {
		if got := get(k); got != want {
			t.Errorf("after evicting: %s present = %v, want %v", k, got, want)
		}
	}
}

// TestStaleTemp: temporary files of crashed writers go once they are old.
func TestStaleTemp(t *testing.T) {
	dir := t.TempDir()
	s := New(dir, 0)
	old := filepath.Join(dir, tmpPrefix+"old")
	fresh := filepath.Join(dir, tmpPrefix+"fresh")
	for _, p := range []string{old, fresh} {
		os.WriteFile(p, []byte("half"), 0o666)
	}
	past := time.Now().Add(-2 * staleTmp)
	os.Chtimes(old, past, past)
	if err := s.Put("k", sample(1)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(old); !errors.Is(err, os.ErrNotExist) {
		t.Error("a stale temporary file was kept")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Error("a fresh temporary file (another writer's) was removed")
	}
}

// TestConcurrent: readers and writers of the same keys at once see whole
// entries or misses, never errors or torn values (run with -race).
func TestConcurrent(t *testing.T) {
	dir := t.TempDir()
	s := New(dir, 0)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 50 {
				k := fmt.Sprintf("k%d", i%5)
				want := sample(i % 5)
				if err := s.Put(k, want); err != nil {
					t.Error(err)
					return
				}
				var v value
				if s.Get(k, &v) && v.Text != want.Text {
					t.Errorf("writer %d: torn entry %q for %s", w, v.Text, k)
				}
			}
		})
	}
	wg.Wait()
	if tmp, _ := filepath.Glob(filepath.Join(dir, tmpPrefix+"*")); len(tmp) != 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
}

// TestUnwritable: a directory that cannot be created is an error from Put
// and a miss from Get, nothing worse.
func TestUnwritable(t *testing.T) {
	base := t.TempDir()
	file := filepath.Join(base, "file")
	os.WriteFile(file, nil, 0o666)
	s := New(filepath.Join(file, "cache"), 0)
	if err := s.Put("k", sample(1)); err == nil {
		t.Error("Put under a file succeeded")
	}
	var v value
	if s.Get("k", &v) {
		t.Error("hit in a cache that cannot exist")
	}
}
