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
