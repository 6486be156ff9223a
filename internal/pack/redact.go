package pack

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/ctxpack/ctxpack/internal/render"
	"github.com/ctxpack/ctxpack/internal/secrets"
)

// The redact stage (DESIGN §1): with Options.Secrets, every text of every
// part — each level in Text, what a Loader loads, what More derives, an
// Item's fields — is scanned and its secrets replaced by markers before
// anything is measured, deduplicated, fitted or rendered. Everything
// downstream sees only redacted text, so the budget is kept on what is
// emitted. The plan lists the findings of what is shown.

// redaction is what the redact stage keeps of an item.
type redaction struct {
	sc    *secrets.Scanner
	found [numLevels][]secrets.Finding // findings of each level's text (eager levels; Full when loaded)
	once  sync.Once                    // scans the loaded full text, once
	// loaded says the full text was loaded and scanned (found[Full] is
	// its findings).
	loaded atomic.Bool
}

// redactEager scans and redacts the items' texts that are in memory: Text's
// levels and an Item's fields. A part is never modified: an item whose Item
// has secrets gets a copy of its part with a redacted copy of the Item.
func redactEager(items []*item) {
	parallel(len(items), func(i int) {
		it := items[i]
		if it.red == nil {
			return
		}
		sc := it.red.sc
		full := it.text[Full] // before redaction, for the window's check
		for l := Meta; l <= Full; l++ {
			if !it.has[l] || it.loads(l) {
				continue
			}
			if f := sc.Scan(it.Path, it.text[l]); f != nil {
				it.red.found[l] = f
				it.text[l] = secrets.Redact(it.text[l], f)
			}
		}
		if len(it.Window) > 0 && it.has[Detailed] && (it.loads(Full) || windowCuts(full, it.Lines[0], it.Window, it.red.found[Full])) {
			// The window would show part of a secret that its own scan
			// cannot recognize (a key's body lines without the key's
			// first line): the part has no window.
			it.has[Detailed], it.text[Detailed], it.red.found[Detailed] = false, "", nil
		}
		if it.Item != nil {
			ri := *it.Item
			changed := false
			for _, s := range []*string{&ri.Head, &ri.Body, &ri.Brief, &ri.Tail, &ri.Note} {
				if f := sc.Scan(it.Path, *s); f != nil {
					*s = secrets.Redact(*s, f)
					changed = true
				}
			}
			if changed {
				p := *it.Part
				p.Item = &ri
				it.Part = &p
			}
		}
	})
}

// redactLoaded redacts the full text t the item's Loader loaded: the
// first load is scanned, and every later one (the same text, by Loader's
// contract) is redacted with its findings.
func (it *item) redactLoaded(t string) string {
	if it.red == nil {
		return t
	}
	it.red.once.Do(func() {
		it.red.found[Full] = it.red.sc.Scan(it.Path, t)
		it.red.loaded.Store(true)
	})
	return secrets.Redact(t, it.red.found[Full])
}

// redactMore scans and redacts a level More derived (from redacted text:
// a safety net for what a summary could put together).
func (it *item) redactMore(l Level, t string) string {
	if it.red == nil {
		return t
	}
	f := it.red.sc.Scan(it.Path, t)
	it.red.found[l] = f
	return secrets.Redact(t, f)
}

// redactions lists the findings in what the plan shows of each listed
// item, in render order: the findings of the level shown whose markers
// the shown text holds (a truncated or cut text holds the first of
// them).
func (f *fitter) redactions(list []*item, chosen map[*item]*choice, shown func(it *item, ch *choice) string) []render.Redaction {
	var out []render.Redaction
	for _, it := range list {
		if it.red == nil {
			continue
		}
		ch := chosen[it]
		found := it.red.found[ch.level]
		if ch.level == Full && it.Loader != nil {
			if !it.red.loaded.Load() {
				it.textAt(Full) // shown, so loaded already, unless truncated
			}
			found = it.red.found[Full]
		}
		if len(found) == 0 {
			continue
		}
		if ch.truncated || it.cut != "" {
			found = secrets.InText(found, shown(it, ch))
		}
		var full []secrets.Finding
		if ch.level != Full && it.has[Full] {
			if it.Loader != nil && !it.red.loaded.Load() {
				it.textAt(Full)
			}
			full = it.red.found[Full]
		}
		for _, x := range found {
			line := x.Line
			if ch.level != Full {
				// A derived level's line is the value's in the full
				// text, when it is there, else the part's first.
				line = 0
				for _, y := range full {
					if y.Fingerprint == x.Fingerprint {
						line = y.Line
						break
					}
				}
			}
			if it.Lines[0] > 0 {
				if line == 0 {
					line = 1
				}
				line += it.Lines[0] - 1
			}
			out = append(out, render.Redaction{Key: it.Key, Path: it.Path, Line: line, Rule: x.Rule, Fingerprint: x.Fingerprint})
		}
	}
	return out
}

// redactionSummary is the warning that sums up the redactions: how many
// secrets in how many parts, by rule, and where the list is.
func redactionSummary(rs []render.Redaction) string {
	parts := map[string]bool{}
	rules := make([]string, len(rs))
	for i, r := range rs {
		parts[r.Key] = true
		rules[i] = r.Rule
	}
	return fmt.Sprintf("redacted %d %s in %d %s (%s): the plan's redactions list each by path, line, rule and fingerprint; secrets.allow in .ctxpack/config.yaml keeps a false positive",
		len(rs), plural(len(rs), "secret"), len(parts), plural(len(parts), "part"), secrets.Tally(rules))
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// windowCuts reports whether a secret found in a part's full text (which
// starts at file line first) is partly inside and partly outside the
// spans of file lines a window of it shows.
func windowCuts(full string, first int, window [][2]int, found []secrets.Finding) bool {
	if len(found) == 0 {
		return false
	}
	// The byte offset where each line of full starts.
	starts := []int{0}
	for i := 0; i < len(full); i++ {
		if full[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	at := func(line int) int { // the byte offset of a file line's start, clamped
		i := min(max(line-first, 0), len(starts)-1)
		if line-first >= len(starts) {
			return len(full)
		}
		return starts[i]
	}
	for _, f := range found {
		for _, s := range window {
			lo, hi := at(s[0]), at(s[1]+1)
			inside := f.Start >= lo && f.End <= hi
			apart := f.End <= lo || f.Start >= hi
			if !inside && !apart {
				return true
			}
		}
	}
	return false
}
