package main

import (
	"slices"
	"testing"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		path, lang string
		want       kind
	}{
		{"src/click/core.py", "python", kindSource},
		{"click/types.pyi", "python", kindSource},
		{"tests/test_core.py", "python", kindTest},
		{"src/pkg/test_helpers.py", "python", kindTest},
		{"jinja2/testsuite/filters.py", "python", kindTest},
		{"conftest.py", "python", kindTest},
		{"setup.py", "python", kindOther},
		{"docs/conf.py", "python", kindOther},
		{"examples/app.py", "python", kindOther},
		{"scripts/release.py", "python", kindOther},
		{"src/pkg/_vendor/six.py", "python", kindOther},
		{"api/foo_pb2.py", "python", kindOther},
		{"CHANGES.rst", "python", kindOther},
		{"pyproject.toml", "python", kindOther},
		{"src/_speedups.c", "python", kindForeign},
		{"context.go", "go", kindSource},
		{"context_test.go", "go", kindTest},
		{"testdata/protoexample/a.go", "go", kindTest},
		{"vendor/github.com/x/y.go", "go", kindOther},
		{"build.go", "go", kindOther},
		{"api/x.pb.go", "go", kindOther},
		{"internal/testify/x.go", "go", kindSource},
		{"lib/router/index.js", "javascript", kindSource},
		{"index.d.ts", "javascript", kindSource},
		{"test/app.router.js", "javascript", kindTest},
		{"lib/x.spec.js", "javascript", kindTest},
		{"dist/axios.min.js", "javascript", kindOther},
		{"rollup.config.js", "javascript", kindOther},
		{".github/workflows/ci.js", "javascript", kindOther},
		{"crates/core/flags/defs.rs", "rust", kindSource},
		{"crates/ignore/src/tests.rs", "rust", kindTest},
		{"tests/regression.rs", "rust", kindTest},
		{"benches/bench.rs", "rust", kindTest},
		{"build.rs", "rust", kindOther},
		{"pkg/ripgrep.py", "rust", kindForeign},
	}
	for _, tt := range tests {
		if got := classify(tt.path, tt.lang); got != tt.want {
			t.Errorf("classify(%q, %s) = %v, want %v", tt.path, tt.lang, got, tt.want)
		}
	}
}

func TestGoldFiles(t *testing.T) {
	m := func(p string) change { return change{'M', p} }
	tests := []struct {
		name    string
		chs     []change
		want    []string
		wantWhy string
	}{
		{"one source and its test", []change{m("src/b.py"), m("tests/test_b.py"), m("CHANGES.rst")}, []string{"src/b.py"}, ""},
		{"sorted", []change{m("src/c.py"), m("src/a.py")}, []string{"src/a.py", "src/c.py"}, ""},
		{"tests and docs only", []change{m("tests/test_b.py"), m("docs/b.rst")}, nil, "no-source"},
		{"four sources", []change{m("a.py"), m("b.py"), m("c.py"), m("d.py")}, nil, "too-many-files"},
		{"adds a module", []change{m("a.py"), {'A', "b.py"}}, nil, "adds-or-deletes-source"},
		{"deletes a module", []change{m("a.py"), {'D', "b.py"}}, nil, "adds-or-deletes-source"},
		{"adds a test", []change{m("a.py"), {'A', "tests/test_a.py"}}, []string{"a.py"}, ""},
		{"changes C too", []change{m("a.py"), m("src/_speedups.c")}, nil, "foreign-code"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, why := goldFiles(tt.chs, "python")
			if !slices.Equal(got, tt.want) || why != tt.wantWhy {
				t.Errorf("goldFiles = %v, %q; want %v, %q", got, why, tt.want, tt.wantWhy)
			}
		})
	}
}

func TestParseSpec(t *testing.T) {
	t.Setenv("HISTSET_TEST_MIRROR", "/mirror")
	tests := []struct {
		line    string
		want    repoSpec
		wantErr bool
	}{
		{"pallets/click python ${HISTSET_TEST_MIRROR}/pallets+click/repo", repoSpec{"pallets/click", "python", "/mirror/pallets+click/repo"}, false},
		{"pallets/click python $HISTSET_TEST_UNSET/pallets+click/repo", repoSpec{}, true},
		{"pallets/click python /m/click.git", repoSpec{"pallets/click", "python", "/m/click.git"}, false},
		{"spf13/cobra Go /m/cobra", repoSpec{"spf13/cobra", "go", "/m/cobra"}, false},
		{"pallets/click python", repoSpec{}, true},
		{"click python /m/click", repoSpec{}, true},
		{"a/b/c python /m/x", repoSpec{}, true},
		{"pallets/click cobol /m/click", repoSpec{}, true},
	}
	for _, tt := range tests {
		got, err := parseSpec(tt.line)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("parseSpec(%q) = %+v, %v; want %+v, error %v", tt.line, got, err, tt.want, tt.wantErr)
		}
	}
}
