package project

import (
	"bytes"
	"path"
	"regexp"
	"strings"
)

// The reasons Walk gives for a lock file and a generated file it leaves
// out (WalkOptions.SkipGenerated); Skipped.Kind counts them as
// SkipLockFile and SkipGenerated.
const (
	LockFileReason         = "a lock file (left out by default; --include-generated, or naming it, packs it)"
	generatedReasonPrefix  = "generated: "
	generatedReasonSuffix  = " (left out by default; --include-generated, or naming it, packs it)"
	generatedAttributeName = "linguist-generated"
)

// lockFiles are the names of the dependency lock files of package
// managers: machine-written, long, and of no use to a reader (flask's
// uv.lock was 34% of its whole pack).
var lockFiles = map[string]bool{
	"package-lock.json":   true, // npm
	"npm-shrinkwrap.json": true,
	"yarn.lock":           true,
	"pnpm-lock.yaml":      true,
	"bun.lock":            true,
	"bun.lockb":           true,
	"deno.lock":           true,
	"uv.lock":             true, // Python
	"poetry.lock":         true,
	"Pipfile.lock":        true,
	"pdm.lock":            true,
	"pixi.lock":           true,
	"conda-lock.yml":      true,
	"Cargo.lock":          true, // Rust
	"go.sum":              true, // Go
	"go.work.sum":         true,
	"Gemfile.lock":        true, // Ruby
	"composer.lock":       true, // PHP
	"mix.lock":            true, // Elixir
	"Podfile.lock":        true, // CocoaPods
	"Package.resolved":    true, // SwiftPM
	"pubspec.lock":        true, // Dart
	"packages.lock.json":  true, // NuGet
	"gradle.lockfile":     true, // Gradle
	"flake.lock":          true, // Nix
	".terraform.lock.hcl": true, // Terraform
	"MODULE.bazel.lock":   true, // Bazel
}

// IsLockFile reports whether the file at the slash path p is a package
// manager's lock file, by its name (package-lock.json, yarn.lock, uv.lock,
// Cargo.lock, go.sum, …).
func IsLockFile(p string) bool { return lockFiles[path.Base(p)] }

// goGenerated is Go's convention for a generated file
// (https://go.dev/s/generatedcode), with any line-comment leader.
var goGenerated = regexp.MustCompile(`^(?://|#|--|;) Code generated .* DO NOT EDIT\.$`)

// Generated says why a file whose text begins with head is generated, in
// the words of a skip reason's detail, or returns "" when it is not. It
// reads the leading comment lines of head (up to the first line that is
// neither blank nor a comment) for Go's convention, a line
// "// Code generated … DO NOT EDIT." (with //, #, -- or ; as the
// comment leader), and for an at-sign "generated" marker in a comment,
// the convention of Meta's tools, protoc plugins and Cargo. Only the
// leading comments count, so a file that mentions either marker in its
// code or its prose is not taken for generated.
func Generated(head []byte) string {
	head = head[:min(len(head), BinaryProbeBytes)]
	head = bytes.TrimPrefix(head, []byte("\ufeff"))
	for len(head) > 0 {
		var line []byte
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			line, head = head, nil // perhaps cut by the probe: still a line
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if goGenerated.Match(line) {
			return "a \"Code generated … DO NOT EDIT.\" line"
		}
		t := strings.TrimSpace(string(line))
		if t == "" {
			continue
		}
		if !isCommentLine(t) {
			return ""
		}
		if hasGeneratedTag(t) {
			return "an @generated marker"
		}
	}
	return ""
}

// isCommentLine reports whether the trimmed line t is a comment (or the
// start or end of one) in the common languages, or a #! line.
func isCommentLine(t string) bool {
	for _, lead := range []string{"//", "#", "/*", "*", "--", ";", "<!--", "\"\"\"", "'''", "{-", "(*", "%"} {
		if strings.HasPrefix(t, lead) {
			return true
		}
	}
	return false
}

// hasGeneratedTag reports whether t holds "@generated" as a word: not
// followed by a letter, digit or underscore.
func hasGeneratedTag(t string) bool {
	const tag = "@generated"
	for {
		i := strings.Index(t, tag)
		if i < 0 {
			return false
		}
		t = t[i+len(tag):]
		if t == "" {
			return true
		}
		c := t[0]
		if !(c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return true
		}
	}
}

// generatedReason is the Skipped reason for a generated file, with why.
func generatedReason(why string) string {
	return generatedReasonPrefix + why + generatedReasonSuffix
}

// attributes are the linguist-generated lines of a .gitattributes file:
// patterns (gitignore syntax without negation) that set or unset the
// attribute, in file order; the last that matches a path decides.
type attributes struct {
	patterns []pattern
	set      []bool
}

// parseGeneratedAttributes reads the linguist-generated attribute from the
// text of the root's .gitattributes: "PATTERN linguist-generated" or
// "…=true" sets it, "-linguist-generated", "!linguist-generated" or
// "…=false" unsets it. Other attributes and macros are not read.
func parseGeneratedAttributes(data []byte) attributes {
	var a attributes
	for _, line := range strings.Split(string(data), "\n") {
		fields := strings.Fields(strings.TrimSuffix(line, "\r"))
		if len(fields) < 2 || strings.HasPrefix(fields[0], "#") || strings.HasPrefix(fields[0], "!") {
			continue
		}
		for _, f := range fields[1:] {
			var set, ok bool
			switch f {
			case generatedAttributeName, generatedAttributeName + "=true":
				set, ok = true, true
			case "-" + generatedAttributeName, "!" + generatedAttributeName, generatedAttributeName + "=false":
				set, ok = false, true
			}
			if !ok {
				continue
			}
			if p, valid := parsePattern(fields[0]); valid && !p.dirOnly {
				a.patterns = append(a.patterns, p)
				a.set = append(a.set, set)
			}
		}
	}
	return a
}

// generated reports whether the attributes mark the file at p generated.
func (a attributes) generated(p string) bool {
	root := ignoreList{}
	for i := len(a.patterns) - 1; i >= 0; i-- {
		if a.patterns[i].match(&root, p, false) {
			return a.set[i]
		}
	}
	return false
}
