package artifact

import (
	"path"
	"strings"

	"github.com/ctxpack/ctxpack/internal/project"
)

// Governs reports whether the paths glob g (clean: CleanGlob) matches the
// file p (a slash path from the project root) or one of its directories,
// so that "src/billing" governs src/billing/a.go as "src/billing/**"
// does. ctxpack check and links mode read paths with it.
func Governs(g, p string) bool {
	for d := p; d != "." && d != "/"; d = path.Dir(d) {
		if project.MatchGlob(g, d) {
			return true
		}
	}
	return false
}

// GlobPrefix is the part of the paths glob g before its first special
// character: every path g governs starts with it.
func GlobPrefix(g string) string {
	if i := strings.IndexAny(g, `*?[\`); i >= 0 {
		return g[:i]
	}
	return g
}

// GlobRoot is the deepest file or directory under which every path the
// paths glob g governs lies: g itself when it has no special character,
// else the directory of its literal prefix ("." for none).
func GlobRoot(g string) string {
	p := GlobPrefix(g)
	if p == g {
		return g
	}
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return path.Clean(p[:i])
	}
	return "."
}
