package remote

import (
	"strings"
	"testing"
)

// TestCheckURL: URLs git may be given, and those refused before it runs.
func TestCheckURL(t *testing.T) {
	for _, tc := range []struct {
		url   string
		isURL bool   // IsURL
		want  string // "" accepted, else part of the error
	}{
		{"https://github.com/o/r", true, ""},
		{"http://host/r.git", true, ""},
		{"ssh://git@host/o/r", true, ""},
		{"git://host/r", true, ""},
		{"file:///tmp/r", true, ""},
		{"git@github.com:o/r.git", true, ""},
		{"ftp://host/r", true, `scheme "ftp" is not taken`},
		{"ext::sh -c touch% x", false, "no spaces"},
		{"ext::sh", false, "transport helpers"},
		{"fd::3", false, "transport helpers"},
		{"-uhttps://x", true, `does not start with "-"`},
		{"src/app.py", false, "not a URL"},
		{"a:b", false, "not a URL"},
		{"dir/x@host:path", false, "not a URL"},
		{"https://h/r\n", true, "control characters"},
		{"", false, "empty"},
		{"https://github.com/o/r/tree/main/src/pkg", true, "give ctxpack pack https://github.com/o/r --remote-ref main src/pkg"},
		{"https://gitlab.com/o/r/-/blob/v1/README.md", true, "give ctxpack pack https://gitlab.com/o/r --remote-ref v1 README.md"},
		{"https://github.com/o/r/tree/main", true, "give ctxpack pack https://github.com/o/r --remote-ref main ("},
		{"https://example.com/o/r/tree/main/x", true, ""},
		{"https://github.com/o/r.git", true, ""},
	} {
		if got := IsURL(tc.url); got != tc.isURL {
			t.Errorf("IsURL(%q) = %t, want %t", tc.url, got, tc.isURL)
		}
		err := CheckURL(tc.url)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("CheckURL(%q) = %v, want nil", tc.url, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("CheckURL(%q) = %v, want an error with %q", tc.url, err, tc.want)
		}
	}
}

// TestGitMessage: git's first fatal line is the message.
func TestGitMessage(t *testing.T) {
	err := &gitError{stderr: "fatal: '/x' does not appear to be a git repository\nfatal: Could not read from remote repository.\n\nPlease make sure\n"}
	if got, want := gitMessage(err), "'/x' does not appear to be a git repository"; got != want {
		t.Errorf("gitMessage = %q, want %q", got, want)
	}
	err = &gitError{stderr: "warning: x\nsomething odd\n"}
	if got, want := gitMessage(err), "something odd"; got != want {
		t.Errorf("gitMessage = %q, want %q", got, want)
	}
}

// TestDisplay: credentials in a URL never reach a message or an output.
func TestDisplay(t *testing.T) {
	for in, want := range map[string]string{
		"https://github.com/o/r":              "https://github.com/o/r",
		"https://ghp_TOKEN@github.com/o/r":    "https://github.com/o/r",
		"https://user:pass@host:8443/a/b.git": "https://host:8443/a/b.git",
		"https://user:p@ss@host":              "https://host",
		"git@github.com:o/r.git":              "git@github.com:o/r.git",
		"file:///tmp/r":                       "file:///tmp/r",
		"ssh://git@host/r":                    "ssh://host/r",
	} {
		if got := Display(in); got != want {
			t.Errorf("Display(%q) = %q, want %q", in, got, want)
		}
	}
	err := &URLError{URL: "https://u:SECRET@host/r", Msg: "unable to access 'https://u:SECRET@host/r/': 403"}
	if strings.Contains(err.Error(), "SECRET") {
		t.Errorf("URLError shows the password: %s", err)
	}
	ref := &RefError{URL: "https://TOKEN@host/r", Ref: "abc1234"}
	if msg := ref.Error(); strings.Contains(msg, "TOKEN") || !strings.Contains(msg, "full id") {
		t.Errorf("RefError = %s", msg)
	}
}
