package evidence

import (
	"slices"
	"strings"
	"testing"
)

// FuzzParseQuestion checks that ParseQuestion never panics and that what
// it accepts holds together: the sections are some of AskSections, in
// their order, and say how they were chosen; coverage and gaps come with
// a subject; the subject's words are the question's; reading the
// question again gives the same.
func FuzzParseQuestion(f *testing.F) {
	for _, s := range []string{
		"What evidence covers error handling?", "What's missing for authentication?", "What evidence is redundant?",
		"error handling", "what is missing for near duplicate detection?", "", " ", "???", "what is missing?",
		"handleError_retry-backoff twice", "é 世 covers", "\x00\xff missing",
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, in string, named bool) {
		var sections []string
		if named {
			sections = []string{Redundancy, Coverage}
		}
		q, err := ParseQuestion(in, sections)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "ctxpack: ") {
				t.Fatalf("error %q does not start with ctxpack: ", err)
			}
			return
		}
		if len(q.Sections) == 0 || q.Chosen == "" {
			t.Fatalf("%q: sections %v, chosen %q", in, q.Sections, q.Chosen)
		}
		at := -1
		for _, s := range q.Sections {
			i := slices.Index(AskSections(), s)
			if i <= at {
				t.Fatalf("%q: sections %v not some of %v in order", in, q.Sections, AskSections())
			}
			at = i
		}
		if (slices.Contains(q.Sections, Coverage) || slices.Contains(q.Sections, Gaps)) && len(q.Terms) == 0 {
			t.Fatalf("%q: %v without a subject", in, q.Sections)
		}
		for _, w := range strings.Fields(q.Subject) {
			if !strings.Contains(in, w) {
				t.Fatalf("%q: subject word %q is not the question's", in, w)
			}
		}
		again, err := ParseQuestion(in, sections)
		if err != nil || !slices.Equal(again.Sections, q.Sections) || again.Subject != q.Subject || !slices.Equal(again.Terms, q.Terms) {
			t.Fatalf("%q: read twice, %+v then %+v (%v)", in, q, again, err)
		}
	})
}
