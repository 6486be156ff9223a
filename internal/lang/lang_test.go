package lang

import "testing"

func TestOf(t *testing.T) {
	for _, tt := range []struct {
		path string
		want File
	}{
		{"a/b.go", File{Language: "go", Comments: "go"}},
		{"A/B.GO", File{Language: "go", Comments: "go"}},
		{`win\dir\x.py`, File{Language: "python", Comments: "python"}},
		{"setup.py", File{Language: "python", Comments: "python", Build: true}},
		{"Makefile", File{Language: "make", Comments: "hash", Build: true}},
		{"go.mod", File{Comments: "c", Config: true}},
		{"x.mod", File{Config: true}},
		{"package-lock.json", File{Language: "json", Comments: "data", Config: true}},
		{"App.vue", File{Comments: "component", Code: true}},
		{"CMakeLists.txt", File{Comments: "hash", Build: true}},
		{"notes.txt", File{Comments: "data"}},
		{".gitignore", File{Comments: "hash"}},
		{"README", File{}},
		{"a.unknown", File{}},
		{"dir.d/noext", File{}},
	} {
		if got := Of(tt.path); got != tt.want {
			t.Errorf("Of(%q) = %+v, want %+v", tt.path, got, tt.want)
		}
	}
	if Language("x.tsx") != "tsx" {
		t.Error("Language(x.tsx)")
	}
}

// Every name of the table is lower case and in one row (byName panics
// otherwise, at init).
func TestTableNames(t *testing.T) {
	for _, r := range table {
		for _, c := range r.names {
			if 'A' <= c && c <= 'Z' {
				t.Errorf("row %q has an upper-case name: lookups lower-case the name", r.names)
			}
		}
	}
	if len(byName) < 150 {
		t.Errorf("%d names: the table lost rows", len(byName))
	}
}
