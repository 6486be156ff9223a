package chunk

import (
	"strings"

	"github.com/ctxpack/ctxpack/internal/lang"
)

// Excerpt is src with only the given spans of lines kept (1-based,
// inclusive, ascending, not overlapping; spans past the end are cut to
// it), each run of lines left out replaced by one line that says how
// many, as a comment of the file's language where it has one and
// indented as the first line it stands for: "    # … 12 lines elided",
// "\t// … 3 lines elided". The lines kept are src's own, byte for byte,
// so a reader can edit them where they stand. It ends with a newline
// when src does or when lines after the last span are left out.
func Excerpt(path string, src []byte, spans [][2]int) string {
	lines := strings.SplitAfter(string(src), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	open, close := elisionComment(lang.Of(path).Comments)
	var b strings.Builder
	elide := func(from, to int) { // lines[from:to], 0-based
		if to <= from {
			return
		}
		ind := ""
		for _, l := range lines[from:to] {
			if t := strings.TrimLeft(l, " \t"); strings.TrimSpace(t) != "" {
				ind = l[:len(l)-len(t)]
				break
			}
		}
		b.WriteString(ind + open + "… " + linesElided(to-from) + close + "\n")
	}
	next := 0 // the first line not written or elided yet
	for _, s := range spans {
		lo, hi := max(s[0]-1, next), min(s[1], len(lines))
		if lo >= hi {
			continue
		}
		elide(next, lo)
		for _, l := range lines[lo:hi] {
			b.WriteString(l)
		}
		next = hi
	}
	if s := b.String(); next < len(lines) && s != "" && !strings.HasSuffix(s, "\n") {
		b.WriteString("\n")
	}
	elide(next, len(lines))
	return b.String()
}

// elisionComment is how an elision line opens and closes in a file whose
// comments are of the given syntax (lang.File.Comments): a comment where
// the language has one, else plain words that read as no code.
func elisionComment(syntax string) (open, close string) {
	switch syntax {
	case "go", "c", "php":
		return "// ", ""
	case "hash", "python":
		return "# ", ""
	case "sql", "lua", "haskell":
		return "-- ", ""
	case "lisp", "ini":
		return "; ", ""
	case "percent":
		return "% ", ""
	case "css":
		return "/* ", " */"
	case "markup", "markdown", "component":
		return "<!-- ", " -->"
	}
	return "", ""
}
