package cmdutil

import (
	"slices"
	"testing"
)

func TestClipboardTools(t *testing.T) {
	for _, tt := range []struct {
		goos    string
		wayland bool
		want    []string
	}{
		{"darwin", false, []string{"pbcopy"}},
		{"windows", false, []string{"clip.exe", "clip"}},
		{"linux", false, []string{"xclip", "xsel", "wl-copy"}},
		{"linux", true, []string{"wl-copy", "xclip", "xsel"}},
		{"freebsd", false, []string{"xclip", "xsel", "wl-copy"}},
	} {
		var got []string
		for _, c := range clipboardTools(tt.goos, tt.wayland) {
			got = append(got, c.Name)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s (wayland %v): %v, want %v", tt.goos, tt.wayland, got, tt.want)
		}
	}
}
