package evidence

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ctxpack/ctxpack/internal/lexical"
	"github.com/ctxpack/ctxpack/internal/words"
)

// The sections of an answer to evidence ask, in the order it gives them.
const (
	Coverage   = "coverage"   // the evidence that answers the question
	Gaps       = "gaps"       // what the index ranks high for it that no evidence holds
	Redundancy = "redundancy" // evidence another evidence file covers
)

// AskSections are the sections an answer can have, in its order.
func AskSections() []string { return []string{Coverage, Gaps, Redundancy} }

// sectionWords are the words of a question that ask for a section
// (lower case, whole words). They say what is asked, not what about, so
// they are left out of the subject.
var sectionWords = map[string]string{
	"cover": Coverage, "covers": Coverage, "covered": Coverage, "covering": Coverage, "coverage": Coverage,
	"answer": Coverage, "answers": Coverage, "relevant": Coverage, "explain": Coverage, "explains": Coverage,

	"missing": Gaps, "miss": Gaps, "misses": Gaps, "lack": Gaps, "lacks": Gaps, "lacking": Gaps,
	"gap": Gaps, "gaps": Gaps, "absent": Gaps, "need": Gaps, "needs": Gaps, "needed": Gaps,

	"redundant": Redundancy, "redundancy": Redundancy, "duplicate": Redundancy, "duplicates": Redundancy,
	"duplicated": Redundancy, "duplication": Redundancy, "overlap": Redundancy, "overlaps": Redundancy,
	"overlapping": Redundancy, "repeat": Redundancy, "repeats": Redundancy, "repeated": Redundancy, "twice": Redundancy,
}

// frameWords are the other words of how a question about the workspace
// is put ("what evidence is …", "… for authentication"), left out of the
// subject besides lexical's stop words.
var frameWords = map[string]bool{
	"evidence": true, "workspace": true, "ctx": true, "is": true, "for": true, "in": true,
	"any": true, "anything": true, "else": true, "still": true, "yet": true, "show": true,
	"list": true, "find": true, "tell": true, "give": true, "s": true, "and": true, "or": true, "not": true,
}

// introWords introduce a question's subject ("missing for …", "relevant
// to …"): after one, a word that would ask for a section is part of the
// subject ("what is missing for near duplicate detection?").
var introWords = map[string]bool{
	"for": true, "about": true, "on": true, "of": true, "to": true, "in": true,
	"regarding": true, "concerning": true, "around": true, "with": true,
}

// Question is a question to evidence ask, read: the sections it asks
// for and its subject.
type Question struct {
	Text string
	// Subject is the question's words without those that say what is
	// asked (sectionWords), lexical's stop words and the other words of
	// how a question about the workspace is put: what the index is
	// searched for. Terms are its search terms (lexical.QueryTerms).
	Subject string
	Terms   []string
	// Sections are the sections answered, in AskSections' order, and
	// Chosen says how they were chosen.
	Sections []string
	Chosen   string
}

// ParseQuestion reads a question. sections, when not empty, are the
// sections to answer (names of AskSections); otherwise the question's
// words choose them: "cover", "answer", "relevant"… ask for coverage;
// "missing", "lack", "gap", "need"… for gaps; "redundant", "duplicate",
// "overlap", "repeat"… for redundancy, unless they come after a word that
// introduces the subject (introWords: "missing for near duplicate
// detection" asks for gaps); a question with none of them (a bare
// subject: "error handling") for coverage and gaps. Coverage and
// gaps need a subject; redundancy is of the whole workspace and needs
// none.
func ParseQuestion(text string, sections []string) (Question, error) {
	q := Question{Text: text}
	if strings.TrimSpace(text) == "" {
		return q, fmt.Errorf(`ctxpack: the question is empty; ask what covers a subject, what is missing for it, or what is redundant ("what evidence covers error handling?")`)
	}
	asked := map[string][]string{} // section → the words that asked for it
	var subject []string
	intro := false
	words.Each(text, func(w string) {
		lw := strings.ToLower(w)
		if introWords[lw] {
			intro = true
			return
		}
		if s, ok := sectionWords[lw]; ok && !intro {
			if !slices.Contains(asked[s], lw) {
				asked[s] = append(asked[s], lw)
			}
			return
		}
		if frameWords[lw] || lexical.IsStopWord(lw) {
			return
		}
		subject = append(subject, w)
	})
	q.Subject = strings.Join(subject, " ")
	q.Terms = lexical.QueryTerms(q.Subject)
	if q.Terms == nil {
		q.Terms = []string{}
	}
	switch {
	case len(sections) > 0:
		for _, s := range sections {
			if !slices.Contains(AskSections(), s) {
				return q, fmt.Errorf("ctxpack: section %q is not one of %s", s, strings.Join(AskSections(), ", "))
			}
		}
		for _, s := range AskSections() {
			if slices.Contains(sections, s) {
				q.Sections = append(q.Sections, s)
			}
		}
		q.Chosen = "asked for: " + strings.Join(q.Sections, ", ")
	case len(asked) > 0:
		var why []string
		for _, s := range AskSections() {
			if ws := asked[s]; len(ws) > 0 {
				q.Sections = append(q.Sections, s)
				quoted := make([]string, len(ws))
				for i, w := range ws {
					quoted[i] = fmt.Sprintf("%q", w)
				}
				why = append(why, fmt.Sprintf("%s (%s)", s, strings.Join(quoted, ", ")))
			}
		}
		q.Chosen = "the question's words ask for " + strings.Join(why, " and ")
	default:
		q.Sections = []string{Coverage, Gaps}
		q.Chosen = "the question names a subject and no section: coverage and gaps"
	}
	if len(q.Terms) == 0 && (slices.Contains(q.Sections, Coverage) || slices.Contains(q.Sections, Gaps)) {
		return q, fmt.Errorf(`ctxpack: the question %q names no subject to find %s for; name one ("what evidence covers error handling?", "what is missing for authentication?"), or ask what is redundant`, text, strings.Join(slices.DeleteFunc(slices.Clone(q.Sections), func(s string) bool { return s == Redundancy }), " and "))
	}
	return q, nil
}
