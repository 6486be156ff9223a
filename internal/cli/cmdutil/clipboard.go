package cmdutil

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// Clipboard is the platform's tool that copies its standard input to the
// clipboard: its name, as found on PATH, and its arguments.
type Clipboard struct {
	Name string
	Path string
	Args []string
}

// clipboardTools are the tools tried on goos, in order. On Linux and the
// BSDs, wl-copy comes first under Wayland (WAYLAND_DISPLAY set), last
// otherwise.
func clipboardTools(goos string, wayland bool) []Clipboard {
	switch goos {
	case "darwin":
		return []Clipboard{{Name: "pbcopy"}}
	case "windows":
		return []Clipboard{{Name: "clip.exe"}, {Name: "clip"}}
	}
	x := []Clipboard{
		{Name: "xclip", Args: []string{"-selection", "clipboard"}},
		{Name: "xsel", Args: []string{"--clipboard", "--input"}},
	}
	wl := Clipboard{Name: "wl-copy"}
	if wayland {
		return append([]Clipboard{wl}, x...)
	}
	return append(x, wl)
}

// FindClipboard returns the first clipboard tool of this platform found on
// PATH, or an error that names the tools to install.
func FindClipboard() (*Clipboard, error) {
	tools := clipboardTools(runtime.GOOS, os.Getenv("WAYLAND_DISPLAY") != "")
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
		if p, err := exec.LookPath(t.Name); err == nil {
			t.Path = p
			return &t, nil
		}
	}
	hint := "install one of them"
	if runtime.GOOS != "darwin" && runtime.GOOS != "windows" {
		hint = "install one (Debian: apt-get install xclip, xsel or wl-clipboard)"
	}
	return nil, fmt.Errorf("--copy: no clipboard tool found on PATH (looked for %s); %s, or write the output to a file with -o FILE; nothing was assembled", strings.Join(names, ", "), hint)
}

// Copy gives data to the tool on its standard input.
func (c *Clipboard) Copy(data []byte) error {
	cmd := exec.Command(c.Path, c.Args...)
	cmd.Stdin = bytes.NewReader(data)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg != "" {
			msg = ": " + msg
		}
		return fmt.Errorf("--copy: %s failed: %v%s", c.Name, err, msg)
	}
	return nil
}
