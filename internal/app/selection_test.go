package app

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplitFileList(t *testing.T) {
	for _, tc := range []struct {
		in   string
		nul  bool
		want []string
	}{
		{"a\nb\n", false, []string{"a", "b"}},
		{"a\r\n\r\nb", false, []string{"a", "", "b"}},
		{"a\x00b c\x00", true, []string{"a", "b c"}},
		{"a\nb\x00", true, []string{"a\nb"}},
		{"", false, nil},
		{"\n", false, nil},
	} {
		if diff := cmp.Diff(tc.want, SplitFileList([]byte(tc.in), tc.nul)); diff != "" {
			t.Errorf("SplitFileList(%q, %t) (-want +got):\n%s", tc.in, tc.nul, diff)
		}
	}
}

func TestSplitGlobs(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want []string
	}{
		{[]string{"src/**/*.ts,**/*.md"}, []string{"src/**/*.ts", "**/*.md"}},
		{[]string{"a", "b, c ,"}, []string{"a", "b", "c"}},
		{[]string{"**/*.{ts,tsx}"}, []string{"**/*.ts", "**/*.tsx"}},
		{[]string{"{src,lib}/*.{c,h},x"}, []string{"src/*.c", "src/*.h", "lib/*.c", "lib/*.h", "x"}},
		{[]string{"a{b}c"}, []string{"a{b}c"}},
		{[]string{`a\,b`}, []string{`a\,b`}},
		{[]string{"{a,{b,c}}d"}, []string{"ad", "bd", "cd"}},
		{[]string{"x{a,b"}, []string{"x{a,b"}},
	} {
		var got []string
		for _, e := range splitGlobs(tc.in) {
			got = append(got, e.alts...)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("splitGlobs(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}
