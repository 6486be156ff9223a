package words

import (
	"slices"
	"testing"
)

func TestSplit(t *testing.T) {
	tests := map[string][]string{
		"HTTPServer":          {"HTTP", "Server"},
		"parseHTTPRequest_v2": {"parse", "HTTP", "Request", "v", "2"},
		"utf8":                {"utf", "8"},
		"max_file_bytes":      {"max", "file", "bytes"},
		"max-file-bytes":      {"max", "file", "bytes"},
		"__init__":            {"init"},
		"__":                  nil,
		"Invoice":             {"Invoice"},
		"ÜberSpaß":            {"Über", "Spaß"},
		"e\u0301te":           {"e\u0301te"},
		"ID":                  {"ID"},
		"IDs":                 {"I", "Ds"},
		"x":                   {"x"},
		"sha256sum":           {"sha", "256", "sum"},
	}
	for in, want := range tests {
		if got := Split(in, nil); !slices.Equal(got, want) {
			t.Errorf("Split(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEach(t *testing.T) {
	tests := map[string][]string{
		"a.b  c_d(e)—f":      {"a", "b", "c_d", "e", "f"},
		"well-known x-y":     {"well-known", "x-y"},
		"a - b --flag a--b":  {"a", "b", "flag", "a", "b"},
		"foo\xffbar":         {"foo", "bar"},
		"os.ReadFile(name) ": {"os", "ReadFile", "name"},
		"":                   nil,
	}
	for in, want := range tests {
		var got []string
		Each(in, func(w string) { got = append(got, w) })
		if !slices.Equal(got, want) {
			t.Errorf("Each(%q) = %q, want %q", in, got, want)
		}
	}
}
