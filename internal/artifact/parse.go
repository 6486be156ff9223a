package artifact

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/ctxpack/ctxpack/internal/project"
)

// MaxBytes is the largest artifact file Parse and Load accept.
const MaxBytes = 1 << 20

// MaxIDBytes is the longest id ValidID accepts.
const MaxIDBytes = 128

// IdentityID is the id of the project's identity (system/identity.md),
// which has no id of its own.
const IdentityID = "identity"

// ValidID reports whether s can be an artifact id: an ASCII letter, then
// ASCII letters, digits, '-', '_' or '.', with no "..", at most MaxIDBytes
// bytes. An id is therefore never a path, never has spaces or control
// characters, and is safe as a file name, a map key and a word in the text
// format.
func ValidID(s string) bool { return idProblem(s) == "" }

// idProblem says what is wrong with s as an id, or "".
func idProblem(s string) string {
	if s == "" {
		return "is empty"
	}
	if len(s) > MaxIDBytes {
		return fmt.Sprintf("is %d bytes long (at most %d)", len(s), MaxIDBytes)
	}
	for i, r := range s {
		switch {
		case 'A' <= r && r <= 'Z', 'a' <= r && r <= 'z':
		case i == 0:
			return "must start with a letter"
		case '0' <= r && r <= '9', r == '-', r == '_':
		case r == '.':
			if s[i-1] == '.' {
				return `must not contain ".."`
			}
		case r == '/' || r == '\\':
			return "must not contain a path separator"
		case unicode.IsSpace(r):
			return "must not contain spaces"
		case unicode.IsControl(r) || r == utf8.RuneError:
			return "must not contain control characters"
		default:
			return fmt.Sprintf("must not contain %q", r)
		}
	}
	return ""
}

// idRule is appended to id errors: it states the rule and shows an example.
func idRule(example string) string {
	return fmt.Sprintf("ids are a letter, then letters, digits, '-', '_' or '.' (like %s)", example)
}

// KnownStatus reports whether s is a status ctxpack knows: DESIGN's draft,
// current, in_progress, done, deprecated and superseded, Contextia's task
// statuses created, active and completed, its spec statuses approved and
// implemented, and the decision-record statuses proposed, accepted and
// rejected. Parse keeps any other status as written; check warns about it.
func KnownStatus(s string) bool {
	switch s {
	case Draft, Current, InProgress, Done, Deprecated, Superseded,
		"created", "active", "completed",
		"approved", "implemented",
		"proposed", "accepted", "rejected":
		return true
	}
	return false
}

// Types lists the artifact types in render order (DESIGN §4).
func Types() []Type { return []Type{Identity, Norm, Decision, Spec, Task} }

// exampleID returns an example id for an error message about typ.
func exampleID(typ Type) string {
	switch typ {
	case Task:
		return "TASK-1"
	case Decision:
		return "DEC-1"
	case Norm:
		return "NORM-1"
	}
	return "SPEC-1"
}

// typeOfPath infers a type from where the file is: system/identity.md,
// work/tasks/, work/active/…, work/archive/…, system/specs/,
// system/rationale/, system/norms/ (as the last folders of the path, so it
// works for .ctxpack/ and .contextia/ alike).
func typeOfPath(p string) Type {
	dir := "/" + path.Dir(p) + "/"
	switch {
	case path.Base(p) == "identity.md" && strings.HasSuffix(dir, "/system/"):
		return Identity
	case strings.HasSuffix(dir, "/work/tasks/"),
		strings.Contains(dir, "/work/active/"), strings.Contains(dir, "/work/archive/"):
		return Task
	case strings.HasSuffix(dir, "/system/specs/"):
		return Spec
	case strings.HasSuffix(dir, "/system/rationale/"):
		return Decision
	case strings.HasSuffix(dir, "/system/norms/"):
		return Norm
	}
	return ""
}

// typeOfID infers a type from an id's prefix: TASK-, SPEC-, DEC- or NORM-.
func typeOfID(id string) Type {
	prefix, _, ok := strings.Cut(id, "-")
	if !ok {
		return ""
	}
	switch prefix {
	case "TASK":
		return Task
	case "SPEC":
		return Spec
	case "DEC":
		return Decision
	case "NORM":
		return Norm
	}
	return ""
}

// parser holds the state of one Parse call.
type parser struct {
	path string
	a    *Artifact
	// offset is added to YAML line numbers to give file line numbers.
	offset int
	// ylines maps YAML lines to file lines when they differ (yamlLines).
	ylines []int
	// seen maps each top-level key to its line, to catch duplicates.
	seen map[string]int
}

func (p *parser) errorf(line int, format string, args ...any) *ParseError {
	return &ParseError{Path: p.path, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// line returns the file line of a node.
func (p *parser) line(n *yaml.Node) int { return p.fileLine(n.Line) }

// fileLine maps a line of the frontmatter as YAML counts them to a line of
// the file.
func (p *parser) fileLine(yamlLine int) int {
	if p.ylines != nil && yamlLine > 0 {
		return p.ylines[min(yamlLine, len(p.ylines)-1)] + p.offset
	}
	return yamlLine + p.offset
}

// yamlLines maps YAML's line numbers in front to the file's when they
// differ: YAML also breaks lines at a lone CR, U+0085, U+2028 and U+2029,
// where the file's lines (and editors') break at LF only. It returns nil
// when they are the same; else m[k] is the file line (1-based, within
// front) on which YAML line k starts.
func yamlLines(front []byte) []int {
	if !bytes.ContainsAny(front, "\r\u0085\u2028\u2029") {
		return nil
	}
	m := []int{0, 1}
	file := 1
	for i := 0; i < len(front); {
		r, size := utf8.DecodeRune(front[i:])
		switch {
		case r == '\r' && i+1 < len(front) && front[i+1] == '\n':
			size = 2
			file++
		case r == '\n':
			file++
		case r == '\r' || r == 0x85 || r == 0x2028 || r == 0x2029:
		default:
			i += size
			continue
		}
		i += size
		m = append(m, file)
	}
	return m
}

// Parse reads one artifact: YAML frontmatter between a first line "---" and
// the next line "---" or "...", then a Markdown body. path is the file's
// slash path relative to the project root; it is recorded in the artifact
// and used to infer its type. The error, if any, is a *ParseError.
func Parse(path string, data []byte) (*Artifact, error) {
	a, err := parse(path, data)
	if err != nil {
		return nil, err
	}
	return a, nil
}

func parse(path string, data []byte) (*Artifact, *ParseError) {
	p := &parser{path: path, seen: make(map[string]int)}
	if len(data) > MaxBytes {
		return nil, p.errorf(0, "%s", tooLarge(int64(len(data))))
	}
	if i := invalidUTF8(data); i >= 0 {
		return nil, p.errorf(lineAt(data, i), "invalid UTF-8 at byte %d; save the file as UTF-8", i)
	}
	text := data
	bom := 0
	if bytes.HasPrefix(text, []byte("\xef\xbb\xbf")) {
		bom = 3
		text = text[3:]
	}
	first, rest, _ := cutLine(text)
	if !isFence(first, false) {
		if len(bytes.TrimSpace(data[bom:])) == 0 {
			return nil, p.errorf(0, "empty file; an artifact starts with a line ---, its YAML frontmatter (id, title, …) and a line ---")
		}
		return nil, p.errorf(1, "no frontmatter: the file must start with a line ---, then YAML fields such as id and title, then a line ---")
	}
	// Find the closing fence.
	fmStart := len(text) - len(rest)
	fmEnd, bodyStart := -1, -1
	for off := fmStart; off < len(text); {
		line, after, _ := cutLine(text[off:])
		if isFence(line, true) {
			fmEnd, bodyStart = off, len(text)-len(after)
			break
		}
		off = len(text) - len(after)
	}
	if fmEnd < 0 {
		return nil, p.errorf(1, "frontmatter is not closed: add a line --- after the last field")
	}
	front := text[fmStart:fmEnd]
	p.offset = 1
	p.ylines = yamlLines(front)
	if perr := p.checkYAMLChars(front); perr != nil {
		return nil, perr
	}
	a := &Artifact{
		Path:  path,
		Lines: project.CountLines(data),
		Line:  make(map[string]int),
		Body:  normalizeNewlines(string(text[bodyStart:])),
		CID:   project.ContentID(string(data)),
	}
	p.a = a
	top, perr := p.decode(front)
	if perr != nil {
		return nil, perr
	}
	var explicitType Type
	if top != nil {
		t, perr := p.fields(top)
		if perr != nil {
			return nil, perr
		}
		explicitType = t
	}
	return a, p.finish(explicitType)
}

// finish infers the type and checks the id once every field is read.
func (p *parser) finish(explicit Type) *ParseError {
	a := p.a
	switch {
	case explicit != "":
		a.Type = explicit
	case typeOfPath(p.path) == Identity:
		a.Type = Identity
	case typeOfID(a.ID) != "":
		a.Type = typeOfID(a.ID)
	default:
		a.Type = typeOfPath(p.path)
	}
	switch {
	case a.Type == "":
		return p.errorf(1, "cannot tell the artifact's type: add a line type: with task, spec, decision or norm, or use an id prefix TASK-, SPEC-, DEC- or NORM-")
	case a.Type == Identity:
		if a.ID != "" && a.ID != IdentityID {
			return p.errorf(a.Line["id"], "the identity has no id (got %s); remove the id line", a.ID)
		}
		a.ID = IdentityID
	case a.ID == "":
		return p.errorf(1, "missing id: add a line like id: %s to the frontmatter", exampleID(a.Type))
	}
	return nil
}

// decode parses the frontmatter as one YAML document and returns its top
// mapping, or nil when it is empty.
func (p *parser) decode(front []byte) (top *yaml.Node, perr *ParseError) {
	defer func() {
		// The YAML library is not trusted to never panic on hostile input.
		if r := recover(); r != nil {
			top, perr = nil, p.errorf(1, "invalid YAML in frontmatter: %v", r)
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(front))
	var doc yaml.Node
	if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
		return nil, nil
	} else if err != nil {
		return nil, p.syntaxError(err, front)
	}
	var next yaml.Node
	if err := dec.Decode(&next); err == nil {
		return nil, p.errorf(p.line(&next), "frontmatter holds more than one YAML document; keep one set of fields between the --- lines")
	} else if !errors.Is(err, io.EOF) {
		return nil, p.syntaxError(err, front)
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	n := project.DerefYAML(doc.Content[0])
	if project.IsNullYAML(n) {
		return nil, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, p.errorf(p.line(n), "frontmatter must be a mapping of fields like id: SPEC-1 (got %s)", describe(n))
	}
	return n, nil
}

// maxRelocate is the largest frontmatter whose syntax errors syntaxError
// relocates; beyond it, yaml.v3's line stands.
const maxRelocate = 64 << 10

// syntaxError turns a YAML error into a ParseError on the file's line.
// yaml.v3 often reports the line where the enclosing block starts rather
// than the line at fault, so for frontmatter up to maxRelocate bytes the
// line is found again: the first line at which a prefix of the
// frontmatter fails with the same message (a binary search: at most 17
// more decodes, on errors only).
func (p *parser) syntaxError(err error, front []byte) *ParseError {
	msg := yamlMessage(err)
	ends := lineEnds(front)
	fails := func(k int) bool { // the first k lines fail with msg
		e := decodeAll(front[:ends[k]])
		return e != nil && yamlMessage(e) == msg
	}
	line := 1
	if len(front) <= maxRelocate && len(ends) > 1 && fails(len(ends)-1) {
		lo, hi := 0, len(ends)-1 // fails(hi) is true; fails(0), on no text, is false
		for hi-lo > 1 {
			mid := lo + (hi-lo)/2
			if fails(mid) {
				hi = mid
			} else {
				lo = mid
			}
		}
		line = hi + p.offset
	} else if n := yamlLine(err); n > 0 {
		line = p.fileLine(n)
	}
	return p.errorf(line, "invalid YAML in frontmatter: %s%s", msg, yamlHint(msg))
}

// lineEnds returns the offsets at which each prefix of whole lines of b
// ends: ends[0] = 0, ends[k] = the end of line k (after its "\n").
func lineEnds(b []byte) []int {
	ends := []int{0}
	for i, c := range b {
		if c == '\n' {
			ends = append(ends, i+1)
		}
	}
	if len(b) > 0 && b[len(b)-1] != '\n' {
		ends = append(ends, len(b))
	}
	return ends
}

// decodeAll decodes every document in b, for its error only.
func decodeAll(b []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: %v", r)
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(b))
	for {
		var n yaml.Node
		if err := dec.Decode(&n); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// yamlMessage returns a YAML error's message on one line, without the
// "yaml: line N: " prefix.
func yamlMessage(err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if num, after, ok := strings.Cut(rest, ": "); ok {
			if _, err := strconv.Atoi(num); err == nil {
				msg = after
			}
		}
	}
	return strings.Join(strings.Fields(msg), " ")
}

// yamlLine returns the line a YAML error names, or 0.
func yamlLine(err error) int {
	rest, ok := strings.CutPrefix(strings.TrimPrefix(err.Error(), "yaml: "), "line ")
	if !ok {
		return 0
	}
	num, _, _ := strings.Cut(rest, ":")
	n, _ := strconv.Atoi(num)
	return max(n, 0)
}

// yamlHint suggests a fix for the common YAML mistakes.
func yamlHint(msg string) string {
	switch {
	case strings.Contains(msg, "mapping values are not allowed"):
		return "; quote a value that holds \": \", or fix the indentation"
	case strings.Contains(msg, "tab character"):
		return "; indent with spaces, not tabs"
	case strings.Contains(msg, "cannot start any token"):
		return "; quote the value (YAML reserves @ and ` at its start)"
	case strings.Contains(msg, "did not find expected key"):
		return "; check the indentation of this line and the one before"
	case strings.Contains(msg, "did not find expected"), strings.Contains(msg, "unexpected end of stream"):
		return "; close the quote or bracket opened here"
	case strings.Contains(msg, "unknown anchor"):
		return "; define the anchor (&name) before using it (*name)"
	}
	return ""
}

// checkYAMLChars reports the first character YAML does not allow in a
// stream (control characters other than tab and line ends), with its line.
func (p *parser) checkYAMLChars(front []byte) *ParseError {
	line := 1
	for _, r := range string(front) {
		if r == '\n' {
			line++
			continue
		}
		if r == '\t' || r == '\r' || r == 0x85 || (r >= 0x20 && r != 0x7f && (r < 0x80 || r > 0x9f) && r != 0xfffe && r != 0xffff) {
			continue
		}
		return p.errorf(line+p.offset, "frontmatter holds the control character %U, which YAML does not allow; remove it", r)
	}
	return nil
}

// fields reads the top-level mapping of the frontmatter, in file order, and
// returns the explicit type, if any.
func (p *parser) fields(top *yaml.Node) (Type, *ParseError) {
	a := p.a
	var typ Type
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], project.DerefYAML(top.Content[i+1])
		key, perr := p.key(k, "")
		if perr != nil {
			return "", perr
		}
		if first, ok := p.seen[key]; ok {
			return "", p.errorf(p.line(k), "%s is set twice (first on line %d); keep one", key, first)
		}
		p.seen[key] = p.line(k)
		switch key {
		case "id":
			a.Line["id"] = p.line(k)
			if v.Kind != yaml.ScalarNode || project.IsNullYAML(v) || v.ShortTag() != "!!str" {
				return "", p.errorf(p.line(k), "id must be an id like SPEC-1 (got %s)", describe(v))
			}
			if msg := idProblem(v.Value); msg != "" {
				return "", p.errorf(p.line(v), "id %s %s; %s", describe(v), msg, idRule("SPEC-BILLING-001"))
			}
			a.ID = v.Value
		case "type":
			a.Line["type"] = p.line(k)
			if project.IsNullYAML(v) {
				continue
			}
			t, ok := Type(""), false
			if v.Kind == yaml.ScalarNode {
				t = Type(v.Value)
				ok = slices.Contains(Types(), t)
			}
			if !ok {
				return "", p.errorf(p.line(v), "type must be one of identity, task, spec, decision, norm (got %s)", describe(v))
			}
			typ = t
		case "title", "status":
			a.Line[key] = p.line(k)
			s, perr := p.text(key, v)
			if perr != nil {
				return "", perr
			}
			if key == "title" {
				a.Title = s
			} else {
				a.Status = s
			}
		case "superseded_by":
			a.Line[key] = p.line(k)
			if project.IsNullYAML(v) {
				continue
			}
			if v.Kind != yaml.ScalarNode {
				return "", p.errorf(p.line(k), "superseded_by must be the id of the artifact that replaces this one (got %s)", describe(v))
			}
			if msg := idProblem(v.Value); msg != "" {
				return "", p.errorf(p.line(v), "superseded_by %s %s; %s", describe(v), msg, idRule("SPEC-1"))
			}
			a.SupersededBy = v.Value
		case "paths":
			a.Line["paths"] = p.line(k)
			if perr := p.paths(v); perr != nil {
				return "", perr
			}
		case "links":
			a.Line["links"] = p.line(k)
			if perr := p.links(v); perr != nil {
				return "", perr
			}
		case "specs", "decisions", "norms", "tasks":
			// Contextia's layout: link lists at the top level.
			if perr := p.linkList("links."+key, key, k, v); perr != nil {
				return "", perr
			}
		default:
			a.Extra = append(a.Extra, Field{Key: key, Value: compact(v, true), Line: p.line(k)})
		}
	}
	return typ, nil
}

// key checks a mapping key and returns its name.
func (p *parser) key(k *yaml.Node, parent string) (string, *ParseError) {
	if k.Kind == yaml.ScalarNode && k.Value == "<<" && (k.Tag == "" || k.Tag == "!" || k.ShortTag() == "!!merge") {
		return "", p.errorf(p.line(k), "merge keys (<<) are not supported in frontmatter; write the fields out")
	}
	if k.Kind != yaml.ScalarNode {
		return "", p.errorf(p.line(k), "%sfield names must be plain words (got %s)", parent, describe(k))
	}
	name := oneLine(k.Value)
	if name == "" {
		return "", p.errorf(p.line(k), "%sempty field name; name the field or remove the line", parent)
	}
	return name, nil
}

// text reads a one-line text field; an empty or null value gives "".
func (p *parser) text(key string, v *yaml.Node) (string, *ParseError) {
	if project.IsNullYAML(v) {
		return "", nil
	}
	if v.Kind != yaml.ScalarNode {
		return "", p.errorf(p.line(v), "%s must be text (got %s)", key, describe(v))
	}
	return oneLine(v.Value), nil
}

// CleanGlob is a paths glob as the project uses it: without a leading
// "./" or "/" (globs start at the project root, as in .gitignore) and
// without a trailing "/".
func CleanGlob(g string) string {
	g = strings.TrimPrefix(g, "./")
	g = strings.TrimLeft(g, "/")
	if len(g) > 1 {
		g = strings.TrimSuffix(g, "/")
	}
	return g
}

// paths reads the paths field: a list of globs, or one glob, each cleaned
// (CleanGlob); a glob that leaves the project ("..", a drive) is an error.
func (p *parser) paths(v *yaml.Node) *ParseError {
	a := p.a
	items, perr := p.list("paths", "a list of globs like src/billing/**", v)
	if perr != nil {
		return perr
	}
	for i, it := range items {
		if it.Kind != yaml.ScalarNode || project.IsNullYAML(it) {
			return p.errorf(p.line(it), "paths item %d must be a glob like src/billing/** (got %s)", i+1, describe(it))
		}
		g := it.Value
		if strings.TrimSpace(g) == "" || strings.ContainsFunc(g, unicode.IsControl) {
			return p.errorf(p.line(it), "paths item %d must be a glob on one line like src/billing/** (got %s)", i+1, describe(it))
		}
		if g = CleanGlob(g); g == "" || g == ".." || strings.HasPrefix(g, "../") || strings.Contains(g, "/../") || strings.HasSuffix(g, "/..") || len(g) > 1 && g[1] == ':' {
			return p.errorf(p.line(it), "paths item %d must stay inside the project: a glob from the project root like src/billing/** (got %s)", i+1, describe(it))
		}
		a.Paths = append(a.Paths, g)
		if _, ok := a.Line["paths["+g+"]"]; !ok {
			a.Line["paths["+g+"]"] = p.line(it)
		}
	}
	return nil
}

// links reads the links mapping.
func (p *parser) links(v *yaml.Node) *ParseError {
	if project.IsNullYAML(v) {
		return nil
	}
	if v.Kind != yaml.MappingNode {
		return p.errorf(p.line(v), "links must be a mapping like links: {specs: [SPEC-1], norms: [NORM-1]} (got %s)", describe(v))
	}
	seen := make(map[string]int)
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], project.DerefYAML(v.Content[i+1])
		kind, perr := p.key(k, "links: ")
		if perr != nil {
			return perr
		}
		full := "links." + kind
		if first, ok := seen[kind]; ok {
			return p.errorf(p.line(k), "%s is set twice (first on line %d); keep one", full, first)
		}
		seen[kind] = p.line(k)
		switch kind {
		case "specs", "decisions", "norms", "tasks":
		default:
			hint := ""
			if s := nearestKind(kind); s != "" {
				hint = fmt.Sprintf(" (did you mean %s?)", s)
			}
			return p.errorf(p.line(k), "%s is not a link kind%s; links are specs, decisions, norms or tasks", full, hint)
		}
		if perr := p.linkList(full, kind, k, val); perr != nil {
			return perr
		}
	}
	return nil
}

// nearestKind suggests a link kind for a misspelt one.
func nearestKind(s string) string {
	l := strings.ToLower(s)
	for _, k := range []string{"specs", "decisions", "norms", "tasks"} {
		if l == k || l+"s" == k || strings.TrimSuffix(l, "s")+"s" == k || strings.HasPrefix(k, l) && len(l) >= 3 {
			return k
		}
	}
	return ""
}

// linkList reads one list of link targets (links.specs, or a top-level
// specs in the Contextia layout) and appends it to the artifact's links,
// skipping targets already listed.
func (p *parser) linkList(full, kind string, k, v *yaml.Node) *ParseError {
	a := p.a
	if _, ok := a.Line[full]; !ok {
		a.Line[full] = p.line(k)
	}
	var dst *[]string
	var example string
	switch kind {
	case "specs":
		dst, example = &a.Links.Specs, "SPEC-1"
	case "decisions":
		dst, example = &a.Links.Decisions, "DEC-1"
	case "norms":
		dst, example = &a.Links.Norms, "NORM-1"
	default:
		dst, example = &a.Links.Tasks, "TASK-1"
	}
	items, perr := p.list(full, "a list of ids like ["+example+"]", v)
	if perr != nil {
		return perr
	}
	for i, it := range items {
		if it.Kind != yaml.ScalarNode || project.IsNullYAML(it) {
			return p.errorf(p.line(it), "%s item %d must be an id like %s (got %s)", full, i+1, example, describe(it))
		}
		if msg := idProblem(it.Value); msg != "" {
			hint := idRule(example)
			if v.Kind == yaml.ScalarNode && strings.ContainsAny(it.Value, ", ") {
				return p.errorf(p.line(it), "%s must be a list of ids, like [%s, %s] (got %s)", full, example, strings.Replace(example, "1", "2", 1), describe(it))
			}
			return p.errorf(p.line(it), "%s: %s %s; %s", full, describe(it), msg, hint)
		}
		key := full + "[" + it.Value + "]"
		if _, ok := a.Line[key]; ok {
			continue
		}
		a.Line[key] = p.line(it)
		*dst = append(*dst, it.Value)
	}
	return nil
}

// list returns the items of a list field: the items of a sequence, a
// scalar as one item, nothing for null.
func (p *parser) list(key, want string, v *yaml.Node) ([]*yaml.Node, *ParseError) {
	switch {
	case project.IsNullYAML(v):
		return nil, nil
	case v.Kind == yaml.ScalarNode:
		return []*yaml.Node{v}, nil
	case v.Kind == yaml.SequenceNode:
		items := make([]*yaml.Node, len(v.Content))
		for i, it := range v.Content {
			items[i] = project.DerefYAML(it)
		}
		return items, nil
	}
	return nil, p.errorf(p.line(v), "%s must be %s (got %s)", key, want, describe(v))
}

// describe names a node's value for an error message, on one line. It
// differs from project.DescribeYAML, which configuration errors use, in
// its words for frontmatter: "a map", "nothing" for null, and every
// scalar quoted, as an id or a title is text whatever YAML makes of it.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a map"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	case yaml.ScalarNode:
		if project.IsNullYAML(n) {
			return "nothing"
		}
		return strconv.Quote(project.ClipValue(n.Value))
	}
	return "an empty value"
}

// compact renders a value on one line: a scalar as its text, a list as its
// items joined by ", " at the top level ("[a, b]" when nested), a map as
// flow YAML ("{k: v}"). Aliases are shown as "*name", not expanded.
func compact(n *yaml.Node, top bool) string {
	var b strings.Builder
	writeCompact(&b, n, top)
	return b.String()
}

func writeCompact(b *strings.Builder, n *yaml.Node, top bool) {
	switch n.Kind {
	case yaml.ScalarNode:
		switch {
		case project.IsNullYAML(n) && top:
		case top:
			b.WriteString(oneLine(n.Value))
		default:
			b.WriteString(flowScalar(n.Value))
		}
	case yaml.AliasNode:
		b.WriteString("*" + oneLine(n.Value))
	case yaml.SequenceNode:
		if !top {
			b.WriteByte('[')
		}
		for i, it := range n.Content {
			if i > 0 {
				b.WriteString(", ")
			}
			writeCompact(b, it, false)
		}
		if !top {
			b.WriteByte(']')
		}
	case yaml.MappingNode:
		if top && len(n.Content) == 0 {
			return
		}
		b.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				b.WriteString(", ")
			}
			writeCompact(b, n.Content[i], false)
			b.WriteString(": ")
			writeCompact(b, n.Content[i+1], false)
		}
		b.WriteByte('}')
	case yaml.DocumentNode:
		for _, c := range n.Content {
			writeCompact(b, c, top)
		}
	}
}

// flowScalar renders a scalar inside a flow collection, quoting it when it
// would otherwise read as flow syntax.
func flowScalar(s string) string {
	one := oneLine(s)
	if one == "" || one != s || strings.ContainsAny(one, ",[]{}:#\"'&*!|>%@`") {
		return strconv.Quote(one)
	}
	return one
}

// oneLine collapses every run of white space (line breaks included) to one
// space, trims the ends and replaces other control characters with U+FFFD,
// so that a value fits on one line of the meta level.
func oneLine(s string) string {
	clean := func(s string) bool {
		for i := 0; i < len(s); i++ {
			if c := s[i]; c < 0x20 || c >= 0x7f {
				return false
			}
		}
		return !strings.Contains(s, "  ") && strings.TrimSpace(s) == s
	}
	if clean(s) {
		return s
	}
	f := strings.FieldsFunc(s, unicode.IsSpace)
	out := strings.Join(f, " ")
	if strings.ContainsFunc(out, unicode.IsControl) {
		out = strings.Map(func(r rune) rune {
			if unicode.IsControl(r) {
				return utf8.RuneError
			}
			return r
		}, out)
	}
	return out
}

// cutLine returns the first line of b without its line end ("\n" or
// "\r\n"), the rest after it, and whether a line end was found.
func cutLine(b []byte) (line, rest []byte, found bool) {
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		return b, nil, false
	}
	line, rest = b[:i], b[i+1:]
	return bytes.TrimSuffix(line, []byte("\r")), rest, true
}

// isFence reports whether line is "---" (or, when closing, "..."), with
// optional trailing spaces or tabs.
func isFence(line []byte, closing bool) bool {
	t := bytes.TrimRight(line, " \t")
	return string(t) == "---" || closing && string(t) == "..."
}

// invalidUTF8 returns the byte offset of the first invalid UTF-8 sequence
// in b, or -1.
func invalidUTF8(b []byte) int {
	if utf8.Valid(b) {
		return -1
	}
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}

// lineAt returns the 1-based line of byte offset i in b.
func lineAt(b []byte, i int) int { return bytes.Count(b[:i], []byte("\n")) + 1 }

// normalizeNewlines turns CRLF line ends into LF.
func normalizeNewlines(s string) string {
	if !strings.Contains(s, "\r\n") {
		return s
	}
	return strings.ReplaceAll(s, "\r\n", "\n")
}

// sizeText formats a byte count in binary units.
func sizeText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// tooLarge is the message for a file of size bytes, over MaxBytes.
func tooLarge(size int64) string {
	s, l := sizeText(size), sizeText(MaxBytes)
	if strings.TrimSuffix(s, ".0 MiB") == strings.TrimSuffix(l, " MiB") {
		s, l = fmt.Sprintf("%d bytes", size), fmt.Sprintf("%d-byte", int64(MaxBytes))
	}
	return fmt.Sprintf("file is %s, over the %s limit for artifacts; split it", s, l)
}
