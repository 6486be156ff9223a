package app

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/render"
)

// Skip is a file a walk found and did not read, and why (Plan.Skipped).
type Skip = render.Skip

// SkipListMax is the most skipped files whose warnings name each; more are
// counted by kind in one warning (SkipWarnings), and the plan's Skipped
// (the CLI's -v) lists them.
const SkipListMax = 10

// skips makes a walk's skipped files Skips.
func skips(in []project.Skipped) []Skip {
	out := make([]Skip, len(in))
	for i, s := range in {
		out[i] = Skip{Path: s.Path, Kind: s.Kind(), Reason: s.Reason}
	}
	return out
}

// SkipWarnings are the warnings of the files a walk skipped, decided here
// for every front end: one for each ("skipped PATH: REASON") when there
// are at most SkipListMax, else one that counts them by kind, the most
// frequent first, and says how to include each kind ("skipped 775 files:
// 736 binary, 31 secrets files by name (…), 8 too large (…)").
// tooLarge is the fix for files over the size limit ("" for none).
func SkipWarnings(skipped []Skip, tooLarge string) []string {
	if len(skipped) <= SkipListMax {
		out := make([]string, len(skipped))
		for i, s := range skipped {
			out[i] = fmt.Sprintf("skipped %s: %s", ShowPath(s.Path), s.Reason)
		}
		return out
	}
	count := map[string]int{}
	for _, s := range skipped {
		count[s.Kind]++
	}
	kinds := make([]string, 0, len(count))
	for k := range count {
		kinds = append(kinds, k)
	}
	slices.SortFunc(kinds, func(a, b string) int { return cmp.Or(count[b]-count[a], strings.Compare(a, b)) })
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = skipKindText(k, count[k], tooLarge)
	}
	return []string{fmt.Sprintf("skipped %d files: %s; -v lists them", len(skipped), strings.Join(parts, ", "))}
}

// skipKindText is n files skipped for kind, with how to include them.
func skipKindText(kind string, n int, tooLarge string) string {
	switch kind {
	case project.SkipBinary:
		return fmt.Sprintf("%d binary", n)
	case project.SkipTooLarge:
		if tooLarge == "" {
			return fmt.Sprintf("%d too large", n)
		}
		return fmt.Sprintf("%d too large (%s)", n, tooLarge)
	case project.SkipSecretFile:
		return fmt.Sprintf("%d %s by name (secrets.include in .ctxpack/config.yaml packs them, redacted)", n, plural(n, "secrets file", "secrets files"))
	case project.SkipUnreadable:
		return fmt.Sprintf("%d unreadable", n)
	case project.SkipSymlink:
		return fmt.Sprintf("%d %s not followed", n, plural(n, "symlink", "symlinks"))
	case project.SkipSpecial:
		return fmt.Sprintf("%d %s", n, plural(n, "not a regular file", "not regular files"))
	case project.SkipLockFile:
		return fmt.Sprintf("%d %s (--include-generated packs them)", n, plural(n, "lock file", "lock files"))
	case project.SkipGenerated:
		return fmt.Sprintf("%d generated (--include-generated packs them)", n)
	}
	return fmt.Sprintf("%d with names that cannot be shown (rename them to include them)", n)
}

// tooLargeFix says how an assembly's walk takes larger files.
func (p *Project) tooLargeFix() string {
	return fmt.Sprintf("over %s; walk.max_file_bytes in .ctxpack/config.yaml raises it", project.HumanBytes(p.maxFileBytes()))
}
