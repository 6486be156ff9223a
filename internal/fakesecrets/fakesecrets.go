package fakesecrets

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
)

// Paths of the secrets that are not in a file.
const (
	MemoryPath = "(memory)"         // in Project.Memories, added to the store at setup
	CommitPath = "(commit message)" // in Project.CommitMessage
)

// What the harness asks of each mode.
const (
	// Task is the task of links mode; it links the artifacts that quote
	// secrets.
	Task = "TASK-001"
	// Query is retrieval mode's free text: it reaches the files with the
	// payment, notification and cloud credentials.
	Query = "rotate the leaked Stripe Slack AWS GitHub credentials token key password in payments notify config"
	// SourcesQuery is sources mode's free text: it reaches the memory, the
	// commit and code.
	SourcesQuery = "rotate token key credentials"
)

// Secret is one secret put in the project.
type Secret struct {
	Kind string
	// Path is the file that holds it, or MemoryPath or CommitPath.
	Path string
	// Values are the strings that must never appear in an output: the
	// whole token, or its secret part (a URL's password, a connection
	// string's key), or each line of 20 characters or more of a key's body.
	Values []string
	// Context are lines near the secret (before and after it) that are
	// not secret: an output that holds them shows the secret's
	// surroundings, so the secret was within its reach.
	Context []string `json:",omitempty"`
}

// LookAlike is one value that looks like a secret and is not.
type LookAlike struct {
	Kind, Path string
	// Value is the exact text that must appear in an output that shows
	// its surroundings.
	Value   string
	Context []string `json:",omitempty"`
}

// Project is a generated project.
type Project struct {
	Seed       uint64
	Files      map[string]string // by slash path
	Secrets    []Secret
	LookAlikes []LookAlike
	// Memories are texts to add to the store (ctxpack memory add).
	Memories []string
	// CommitMessage is the message of the project's one commit.
	CommitMessage string
}

// placeholder is «secret:KIND», «look:KIND» or «look:KIND:ARG».
var placeholder = regexp.MustCompile(`«(secret|look):([a-z0-9-]+)(?::([^»]*))?»`)

// span is where a placeholder's text went in a document.
type span struct {
	doc        string
	start, end int
	secret     int // index in Secrets, or -1
	look       int // index in LookAlikes, or -1
}

// Generate makes the project of seed. The same seed gives the same
// project.
func Generate(seed uint64) Project {
	g := &gen{r: rand.New(rand.NewPCG(seed, 0x5ec2e75))}
	p := Project{Seed: seed, Files: map[string]string{}}
	texts := map[string]string{} // every document, files and the others
	var spans []span
	fill := func(doc, tmpl string) string {
		tmpl = strings.ReplaceAll(tmpl, "'''", "```")
		var b strings.Builder
		last := 0
		for _, m := range placeholder.FindAllStringSubmatchIndex(tmpl, -1) {
			b.WriteString(tmpl[last:m[0]])
			last = m[1]
			class, kind, arg := tmpl[m[2]:m[3]], tmpl[m[4]:m[5]], ""
			if m[6] >= 0 {
				arg = tmpl[m[6]:m[7]]
			}
			sp := span{doc: doc, secret: -1, look: -1}
			var text string
			if class == "secret" {
				v := secretGen(kind)(g)
				text = v.text
				values := v.values
				if values == nil {
					values = []string{v.text}
				}
				sp.secret = len(p.Secrets)
				p.Secrets = append(p.Secrets, Secret{Kind: kind, Path: doc, Values: values})
			} else {
				text = lookGen(kind)(g, arg)
				val := text
				if strings.HasPrefix(text, "-----BEGIN ") {
					val = pemLine(text)
				}
				sp.look = len(p.LookAlikes)
				p.LookAlikes = append(p.LookAlikes, LookAlike{Kind: kind, Path: doc, Value: val})
			}
			// A multi-line value takes the indentation of its line.
			lineStart := strings.LastIndexByte(tmpl[:m[0]], '\n') + 1
			indent := tmpl[lineStart:m[0]]
			indent = indent[:len(indent)-len(strings.TrimLeft(indent, " \t"))]
			text = strings.ReplaceAll(text, "\n", "\n"+indent)
			sp.start = b.Len()
			b.WriteString(text)
			sp.end = b.Len()
			spans = append(spans, sp)
		}
		b.WriteString(tmpl[last:])
		texts[doc] = b.String()
		return b.String()
	}
	for _, t := range templates {
		p.Files[t.path] = fill(t.path, t.text)
	}
	for i, m := range memories {
		p.Memories = append(p.Memories, fill(fmt.Sprintf("%s %d", MemoryPath, i+1), m))
	}
	for i := range p.Secrets {
		if strings.HasPrefix(p.Secrets[i].Path, MemoryPath) {
			p.Secrets[i].Path = MemoryPath
		}
	}
	p.CommitMessage = fill(CommitPath, commitMessage)
	for _, sp := range spans {
		ctx := contextLines(texts, spans, sp)
		if sp.secret >= 0 {
			p.Secrets[sp.secret].Context = ctx
		} else {
			p.LookAlikes[sp.look].Context = ctx
		}
	}
	return p
}

func secretGen(kind string) func(*gen) value {
	for _, k := range secretKinds {
		if k.kind == kind {
			return k.gen
		}
	}
	panic("fakesecrets: no secret kind " + kind)
}

func lookGen(kind string) func(*gen, string) string {
	for _, k := range lookAlikeKinds {
		if k.kind == kind {
			return k.gen
		}
	}
	panic("fakesecrets: no look-alike kind " + kind)
}

// contextLines returns the nearest line before sp and the nearest after
// it, within 6 lines, that can witness sp's surroundings: at least 8
// characters with a letter, found once in all the documents, holding no
// value and no PEM armor (which a scanner may take away with a key).
func contextLines(texts map[string]string, spans []span, sp span) []string {
	text := texts[sp.doc]
	ok := func(lineStart, lineEnd int) (string, bool) {
		line := strings.TrimSpace(text[lineStart:lineEnd])
		if len(line) < 8 || !strings.ContainsAny(line, upper+lower) || strings.Contains(line, "-----") {
			return "", false
		}
		for _, o := range spans {
			if o.doc == sp.doc && o.start < lineEnd && o.end > lineStart {
				return "", false
			}
		}
		n := 0
		for _, t := range texts {
			n += strings.Count(t, line)
		}
		return line, n == 1
	}
	// The lines, by their start offsets; sp is on lines first to last.
	starts := []int{0}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' && i+1 < len(text) {
			starts = append(starts, i+1)
		}
	}
	lineEnd := func(j int) int {
		if j+1 < len(starts) {
			return starts[j+1] - 1
		}
		return len(text)
	}
	lineOf := func(off int) int {
		j, found := slices.BinarySearch(starts, off)
		if !found {
			j--
		}
		return j
	}
	first, last := lineOf(sp.start), lineOf(max(sp.start, sp.end-1))
	var out []string
	for j := first - 1; j >= 0 && j >= first-6; j-- {
		if line, good := ok(starts[j], lineEnd(j)); good {
			out = append(out, line)
			break
		}
	}
	for j := last + 1; j < len(starts) && j <= last+6; j++ {
		if line, good := ok(starts[j], lineEnd(j)); good {
			out = append(out, line)
			break
		}
	}
	return out
}

// SecretKinds returns the kinds of secrets the generator knows, in order.
func SecretKinds() []string {
	var out []string
	for _, k := range secretKinds {
		out = append(out, k.kind)
	}
	return out
}

// LookAlikeKinds returns the kinds of look-alikes the generator knows,
// in order.
func LookAlikeKinds() []string {
	var out []string
	for _, k := range lookAlikeKinds {
		out = append(out, k.kind)
	}
	return out
}

// Manifest is what a harness needs of a project to score outputs: the
// project less its files.
type Manifest struct {
	Seed          uint64
	Secrets       []Secret
	LookAlikes    []LookAlike
	Memories      []string
	CommitMessage string
	// What to ask of each mode: Task, Query and SourcesQuery.
	Task, Query, SourcesQuery string
}

// Manifest returns p's manifest.
func (p Project) Manifest() Manifest {
	return Manifest{Seed: p.Seed, Secrets: p.Secrets, LookAlikes: p.LookAlikes, Memories: p.Memories, CommitMessage: p.CommitMessage,
		Task: Task, Query: Query, SourcesQuery: SourcesQuery}
}

// kinds returns the sorted kinds of secrets.
func kinds(secrets []Secret) []string {
	var out []string
	for _, s := range secrets {
		out = append(out, s.Kind)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Setup returns the command lines, after "ctxpack -C DIR", that finish a
// written project: the memories added to the store, and an evidence file
// added to the workspace (as `ctxpack evidence add` writes it, with its
// provenance), beside the links the workspace already holds.
func (m Manifest) Setup() [][]string {
	var out [][]string
	for _, mem := range m.Memories {
		out = append(out, []string{"memory", "add", mem, "--category", "fact", "--importance", "0.9"})
	}
	return append(out, []string{"evidence", "add", "services/risk/app.py", "--rank", "140"})
}

// Value is one secret of kind (one of SecretKinds) drawn from seed, as
// Generate writes it into a file: for tests that need a secret-looking
// value without committing one. It panics on an unknown kind.
func Value(kind string, seed uint64) string {
	for _, k := range secretKinds {
		if k.kind == kind {
			return k.gen(&gen{r: rand.New(rand.NewPCG(seed, 0))}).text
		}
	}
	panic("fakesecrets: unknown kind " + kind)
}
