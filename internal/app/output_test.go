package app

import "testing"

func TestSplitName(t *testing.T) {
	for _, tt := range []struct {
		name string
		i    int
		want string
	}{
		{"out.txt", 1, "out.1.txt"},
		{"dir/pack.xml", 12, "dir/pack.12.xml"},
		{"out", 2, "out.2"},
		{".pack", 3, ".pack.3"},
		{"a.b.md", 1, "a.b.1.md"},
	} {
		if got := SplitName(tt.name, tt.i); got != tt.want {
			t.Errorf("SplitName(%q, %d) = %q, want %q", tt.name, tt.i, got, tt.want)
		}
	}
}

func TestLeaveOutput(t *testing.T) {
	root := t.TempDir()
	p := &Project{Root: root, Dir: root}
	leave := p.leaveOutput("out/pack.txt")
	for path, want := range map[string]bool{
		"out/pack.txt": true, "out/pack.1.txt": true, "out/pack.27.txt": true,
		"out/pack.01.txt": false, "out/pack.x.txt": false, "pack.1.txt": false, "out/pack.1.md": false, "out/pack.txt.1": false,
	} {
		if got := leave(path) != ""; got != want {
			t.Errorf("%s: left out %v, want %v", path, got, want)
		}
	}
	if p.leaveOutput("") != nil || p.leaveOutput("/elsewhere/x.txt") != nil {
		t.Error("an output outside the root leaves files out")
	}
}
