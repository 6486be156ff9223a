package retrieval

import (
	"math"
	"strings"

	"github.com/ctxpack/ctxpack/internal/chunk"
	"github.com/ctxpack/ctxpack/internal/lexical"
)

// The relevant window of a large chunk (docs/retrieval.md, "Windows"): a
// chunk of more than windowMin lines whose body matched query terms is
// also offered as its signature and the windowLines lines that hold the
// most of those terms, weighted by rarity within the chunk, the rest
// elided by a comment that counts the lines. The engine shows it when
// the whole does not fit, instead of a signature alone.
const (
	windowMin   = 40 // lines; a shorter chunk is shown whole or not at all
	windowLines = 30 // lines of the window, besides the signature
	sigMax      = 12 // the most lines a signature takes
)

// window returns the chunk's relevant window and the spans of file lines
// it shows verbatim, or "" when the chunk is short, matched no term in
// its body, or its window would not be much shorter than the whole.
func window(c chunkView, body string) (string, [][2]int) {
	lines := strings.SplitAfter(body, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	n := len(lines)
	if n <= windowMin || len(c.terms) == 0 {
		return "", nil
	}
	// Each line's terms that are query terms (a query term also matches
	// the words it is a prefix of, as the index's stems do), and each
	// term's weight: ln(1 + n / the lines that hold it).
	hits := make([][]string, n)
	df := map[string]int{}
	for i, l := range lines {
		seen := map[string]bool{}
		for _, t := range lexical.Terms(l) {
			for _, q := range c.terms {
				if (t == q || len(q) >= 4 && strings.HasPrefix(t, q)) && !seen[q] {
					seen[q] = true
					hits[i] = append(hits[i], q)
					df[q]++
				}
			}
		}
	}
	score := make([]float64, n+1) // prefix sums of the lines' weights
	for i := range lines {
		w := 0.0
		for _, q := range hits[i] {
			w += math.Log(1 + float64(n)/float64(df[q]))
		}
		score[i+1] = score[i] + w
	}
	from, sig := signatureLines(lines)
	size := min(windowLines, n-sig)
	best, bestAt := 0.0, -1
	for s := sig; s+size <= n; s++ {
		if v := score[s+size] - score[s]; v > best+1e-9 {
			best, bestAt = v, s
		}
	}
	if bestAt < 0 {
		return "", nil
	}
	first := c.start
	spans := [][2]int{{first + from, first + sig - 1}}
	lo, hi := first+bestAt, first+bestAt+size-1
	if lo <= spans[0][1]+1 {
		spans[0][1] = hi
	} else {
		spans = append(spans, [2]int{lo, hi})
	}
	// A closing line (a bracket alone) ends the window as it ends the
	// chunk, so a brace language reads as balanced.
	if last := first + n - 1; hi < last && isCloser(lines[n-1]) {
		if hi == last-1 {
			spans[len(spans)-1][1] = last
		} else {
			spans = append(spans, [2]int{last, last})
		}
	}
	rel := make([][2]int, len(spans))
	for i, s := range spans {
		rel[i] = [2]int{s[0] - first + 1, s[1] - first + 1}
	}
	text := chunk.Excerpt(c.path, []byte(body), rel)
	if 10*len(text) > 6*len(body) {
		return "", nil
	}
	return text, spans
}

// chunkView is what window needs of a ranked chunk.
type chunkView struct {
	path  string
	start int      // the chunk's first line in its file
	terms []string // the query terms its body matched
}

// signatureLines is where a chunk's signature is among its lines
// (0-based, end exclusive): past the comments before it (a doc comment is
// elided, not shown), its decorators and the lines up to where the
// brackets opened on the declaration's line close, at most sigMax lines;
// the first line when no line of the first sigMax is code.
func signatureLines(lines []string) (from, to int) {
	for from < len(lines) && from < sigMax && isComment(lines[from]) {
		from++
	}
	if from == len(lines) || from == sigMax {
		return 0, 1
	}
	depth := 0
	for i := from; i < min(len(lines), from+sigMax); i++ {
		t := strings.TrimSpace(lines[i])
		for _, r := range t {
			switch r {
			case '(', '[':
				depth++
			case ')', ']':
				depth--
			}
		}
		if depth <= 0 && !strings.HasPrefix(t, "@") && !strings.HasPrefix(t, "#[") {
			return from, i + 1
		}
	}
	return from, min(len(lines), from+sigMax)
}

// isComment reports whether a line is blank or a comment line of the
// common syntaxes (//, /*, *, #, --), not an attribute (#[…]).
func isComment(l string) bool {
	t := strings.TrimSpace(l)
	if t == "" || strings.HasPrefix(t, "#[") || strings.HasPrefix(t, "#!") {
		return t == ""
	}
	for _, p := range []string{"//", "/*", "*", "#", "--"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// isCloser reports whether a line holds only closing brackets and
// punctuation: "}", "};", "})", "end".
func isCloser(l string) bool {
	t := strings.TrimSpace(l)
	return t != "" && strings.Trim(t, "}]);,") == "" || t == "end"
}
