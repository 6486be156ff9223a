package render

import (
	"cmp"
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"
)

// Item is an item of sources mode or premortem as the ContextAssembler
// seed shows it: a heading, a body (in a code fence when it is code) and a
// metadata line. Its text is the block's text in every format; in
// markdown, under its source's section heading, it is shown bare. Only the
// body is ever cut.
type Item struct {
	Head string // the heading: "**Memory**: ", "**Commit** `1a2b3c4` by Ada on 2024-01-02\n"
	Body string // the item's text, whole: what a cut shortens
	// Brief is the body at the depths below full: its first paragraph,
	// a code unit's extractive summary, an experience's goal, outcome and
	// lesson; "" when it is Body.
	Brief string
	Lang  string // when set, the body is shown in a code fence of this language
	Tail  string // the metadata line after the body: "\n*Category: fact, Importance: 0.9 · memory:42*"
	// Where names where the whole item is, for a plan that says it was
	// cut: "memory:42", "experience experience:12", "src/a.go:10".
	Where string
	Note  string // what ends a cut item: where the whole is, for the reader
}

// Text is the item with its body whole.
func (it Item) Text() string { return it.compose(it.Body, false) }

// Cut is the item with body, a prefix of its body, in place of the
// whole: "..." after it, then the note.
func (it Item) Cut(body string) string { return it.compose(body, true) + it.Note }

// Summary is the item as the depths below full show it: its brief form
// as its body, when it has one.
func (it Item) Summary() Item {
	if it.Brief != "" {
		it.Body = it.Brief
	}
	it.Brief = ""
	return it
}

// Meta is the item as depth meta shows it: its heading and metadata line
// alone.
func (it Item) Meta() Item {
	it.Body, it.Brief = "", ""
	return it
}

func (it Item) compose(body string, cut bool) string {
	if cut {
		body = strings.TrimRight(body, " \n") + "..."
	}
	if it.Lang != "" && body != "" {
		f := Fence(body)
		body = f + it.Lang + "\n" + body + "\n" + f
	}
	return it.Head + body + it.Tail
}

// cutNote is the note of a cut item whose whole is at where.
func cutNote(where string) string { return "\n\n*(truncated; the whole is at " + where + ")*" }

// Memory is a stored memory, as an item shows it.
type Memory struct {
	Key        string // "memory:42"
	Content    string
	Category   string
	Importance float64
}

// Item is the memory in the seed's format.
func (m Memory) Item() Item {
	return Item{
		Head: "**Memory**: ", Body: m.Content, Brief: firstParagraph(m.Content),
		Tail:  fmt.Sprintf("\n*Category: %s, Importance: %s · %s*", m.Category, strconv.FormatFloat(m.Importance, 'g', 4, 64), m.Key),
		Where: m.Key, Note: cutNote(m.Key),
	}
}

// Experience is a stored experience, as an item shows it.
type Experience struct {
	Key                                  string // "experience:12"
	Domain, Strategy                     string
	Goal, Hypothesis, Action, Prediction string
	Outcome, Result                      string // "falsified", and what happened
	Surprise, RootCause, Lesson          string
	Confidence                           string // gold, silver, bronze, abandoned
	Iterations                           int
}

// Item is the experience in the seed's format: every narrative field it
// has, one a line.
func (e Experience) Item() Item {
	head := "**Experience**: " + e.Domain
	if e.Strategy != "" {
		head += " | " + e.Strategy
	}
	var b strings.Builder
	for _, f := range [][2]string{
		{"Goal", e.Goal}, {"Hypothesis", e.Hypothesis}, {"Action", e.Action}, {"Prediction", e.Prediction},
		{"Outcome", e.Outcome + " - " + e.Result}, {"Surprise", e.Surprise}, {"Root cause", e.RootCause}, {"Lesson", e.Lesson},
	} {
		field(&b, f[0], f[1])
	}
	brief := fmt.Sprintf("- **Goal**: %s\n- **Outcome**: %s - %s", oneLine(e.Goal), e.Outcome, oneLine(e.Result))
	if e.Lesson != "" {
		brief += "\n- **Lesson**: " + oneLine(e.Lesson)
	}
	return Item{
		Head: head + "\n", Body: strings.TrimSuffix(b.String(), "\n"), Brief: brief,
		Tail:  fmt.Sprintf("\n*%s, %s, %d iteration%s*", e.Key, e.Confidence, e.Iterations, plural(e.Iterations)),
		Where: "experience " + e.Key, Note: e.note(),
	}
}

// StrategyItem is the experience as a premortem's strategy section shows
// it: how it turned out, with its result and lesson.
func (e Experience) StrategyItem() Item {
	return e.aspect(fmt.Sprintf("**%s** %s with %s: %s\n", capitalize(e.Outcome), e.Domain, e.Strategy, oneLine(e.Goal)),
		"Result", e.Result, "Lesson", e.Lesson)
}

// SurpriseItem is the experience as a premortem's surprises section
// shows it: the surprise, what was predicted and what came.
func (e Experience) SurpriseItem() Item {
	return e.aspect(fmt.Sprintf("**Surprise** (%s): %s\n", e.domainStrategy(), oneLine(e.Surprise)),
		"Predicted", e.Prediction, "Got", e.Result)
}

// RootCauseItem is the experience as a premortem's root-cause section
// shows it: the root cause ("the hypothesis did not hold" when none is
// recorded), the hypothesis and the result.
func (e Experience) RootCauseItem() Item {
	cause := cmp.Or(e.RootCause, "the hypothesis did not hold")
	return e.aspect(fmt.Sprintf("**Root cause** (%s): %s\n", e.domainStrategy(), oneLine(cause)),
		"Hypothesis", e.Hypothesis, "Result", e.Result)
}

// aspect is the experience shown by one aspect: a heading and two
// fields, which are its brief form too.
func (e Experience) aspect(head, k1, v1, k2, v2 string) Item {
	var b strings.Builder
	field(&b, k1, v1)
	field(&b, k2, v2)
	body := strings.TrimSuffix(b.String(), "\n")
	return Item{
		Head: head, Body: body, Brief: body,
		Tail:  fmt.Sprintf("\n*%s, %s*", e.Key, e.Confidence),
		Where: "experience " + e.Key, Note: e.note(),
	}
}

func (e Experience) note() string { return "\n\n*(truncated, full experience ID: " + e.Key + ")*" }

func (e Experience) domainStrategy() string {
	if e.Strategy == "" {
		return e.Domain
	}
	return e.Domain + " | " + e.Strategy
}

// field writes "- **name**: v" on one line, when v is not blank.
func field(b *strings.Builder, name, v string) {
	if strings.TrimSpace(v) != "" {
		fmt.Fprintf(b, "- **%s**: %s\n", name, oneLine(v))
	}
}

// Value is a stored value (a principle), as an item shows it.
type Value struct {
	Key         string // "value:3"
	Axis        string
	ClusterSize int // 0 when it was written, not derived
	Text        string
	From        string // the key of the experience it came from, if any
}

// Item is the value in the seed's format.
func (v Value) Item() Item {
	head := fmt.Sprintf("**Value** (%s):\n", v.Axis)
	if v.ClusterSize > 0 {
		head = fmt.Sprintf("**Value** (%s, cluster size: %d):\n", v.Axis, v.ClusterSize)
	}
	tail := "\n*" + v.Key
	if v.From != "" {
		tail += ", from " + v.From
	}
	return Item{
		Head: head, Body: v.Text, Brief: firstParagraph(v.Text), Tail: tail + "*",
		Where: v.Key, Note: cutNote(v.Key),
	}
}

// Commit is a git commit, as an item shows it.
type Commit struct {
	Short   string // the abbreviated hash
	Author  string
	Time    int64 // Unix seconds; shown as its UTC date
	Message string
	Files   []string // the files it changed
	// Insertions and Deletions are the lines it added and removed.
	Insertions, Deletions int
}

// maxCommitFiles is how many of a commit's files its item names.
const maxCommitFiles = 8

// Item is the commit in the seed's format: its message, and the files it
// changed (the first eight) with the lines added and deleted.
func (c Commit) Item() Item {
	msg := strings.TrimSpace(c.Message)
	tail := ""
	if len(c.Files) > 0 {
		shown := c.Files[:min(len(c.Files), maxCommitFiles)]
		tail = "\n*Files: " + strings.Join(shown, ", ")
		if len(c.Files) > len(shown) {
			tail += fmt.Sprintf(", … (%d files)", len(c.Files))
		}
		tail += fmt.Sprintf("; +%d −%d*", c.Insertions, c.Deletions)
	}
	when := time.Unix(c.Time, 0).UTC().Format("2006-01-02")
	return Item{
		Head: fmt.Sprintf("**Commit** `%s` by %s on %s\n", c.Short, oneLine(c.Author), when),
		Body: msg, Brief: firstParagraph(msg), Tail: tail,
		Where: "commit " + c.Short, Note: cutNote("commit " + c.Short),
	}
}

// Code is a unit of code (a function, a type, a chunk), as an item shows
// it.
type Code struct {
	Kind    string // "function", "type"…; "chunk" when empty
	Name    string // the symbol; the file's name when empty
	Path    string // slash path relative to the project root
	Line    int    // its first line
	Text    string
	Lang    string // its fence's language; "text" when empty
	Summary string // its extractive summary, if any: the brief form
}

// Item is the code unit in the seed's format: a heading that names it
// and where it is, and its text in a fence.
func (c Code) Item() Item {
	where := fmt.Sprintf("%s:%d", c.Path, c.Line)
	return Item{
		Head: fmt.Sprintf("**%s** `%s` in `%s`\n", cmp.Or(c.Kind, "chunk"), cmp.Or(c.Name, path.Base(c.Path)), where),
		Body: c.Text, Lang: cmp.Or(c.Lang, "text"), Brief: strings.TrimRight(cmp.Or(c.Summary, firstParagraph(c.Text)), "\n"),
		Where: where, Note: "\n\n*(truncated, see full at " + where + ")*",
	}
}

// Artifact is an artifact a task links to, as an item shows it.
type Artifact struct {
	Type, ID, Path string
	Via            []string // the link chain that reached it
	Text           string   // the whole artifact
	Summary        string   // its summary level: the brief form
}

// Item is the artifact: a heading with its type, id, path and link
// chain, and its text in a Markdown fence.
func (a Artifact) Item() Item {
	head := fmt.Sprintf("**%s** `%s` in `%s`", a.Type, a.ID, a.Path)
	if len(a.Via) > 0 {
		head += " (via " + strings.Join(a.Via, " → ") + ")"
	}
	return Item{
		Head: head + "\n", Body: a.Text, Lang: "markdown", Brief: strings.TrimRight(a.Summary, "\n"),
		Where: a.Path, Note: cutNote(a.Path),
	}
}

// ContextHeader is what starts sources mode's markdown.
const ContextHeader = "# Context\n\n"

// ContextFooter is what ends sources mode's markdown: how many items it
// shows from how many sources.
func ContextFooter(items, sources int) string {
	return fmt.Sprintf("---\n*%d item%s from %d source%s*\n", items, plural(items), sources, plural(sources))
}

// PremortemHeader is what starts a premortem's markdown: its target, the
// domain and strategy.
func PremortemHeader(target string) string { return "# Premortem: " + oneLine(target) + "\n\n" }

// PremortemFooter is what ends a premortem's markdown: how many past
// experiences it draws on.
func PremortemFooter(experiences int) string {
	return fmt.Sprintf("---\n*Based on %d past experience%s*\n", experiences, plural(experiences))
}

// oneLine is s with its line breaks and runs of white space turned to
// single spaces, for a list item or a heading.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// firstParagraph is s, trimmed, up to its first blank line.
func firstParagraph(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "\n\n"); i >= 0 {
		return s[:i]
	}
	return s
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
