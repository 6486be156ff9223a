package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/ctxpack/ctxpack/internal/artifact"
	"github.com/ctxpack/ctxpack/internal/cache"
	"github.com/ctxpack/ctxpack/internal/chunk"
	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/project"
)

// Summary is one file, or some lines of it, at one level (DESIGN §3).
type Summary struct {
	Path string `json:"path"` // slash path relative to the project root
	// Lines are the lines summarized (1-based, inclusive), absent for the
	// whole file.
	Lines *[2]int `json:"lines,omitempty"`
	// Kind says where the levels come from: "artifact" (the artifact
	// levels), "code" and "markdown" (chunk.Levels), or "text" (the first
	// section). Lines of an artifact are markdown.
	Kind      string `json:"kind"`
	Language  string `json:"language"`
	Level     string `json:"level"` // the level asked for
	Shown     string `json:"shown"` // the level of Text: Level, or the next lower level the file has
	Tokenizer string `json:"tokenizer"`
	// Levels are the levels the file has, highest first, with their
	// tokens.
	Levels   []LevelTokens `json:"levels"`
	Text     string        `json:"text"`
	Warnings []string      `json:"warnings"`
}

// LevelTokens is the size of one level of a file.
type LevelTokens struct {
	Level  string `json:"level"`
	Tokens int    `json:"tokens"`
}

// SummarizeOptions say which level of which lines, and how to count it.
type SummarizeOptions struct {
	Level     string // meta (or stub), summary, detailed, full; "" is summary
	Tokenizer string // "" is the configured one
	// Lines, when not zero, are the lines to summarize instead of the
	// whole file: 1-based and inclusive, Lines[0] <= Lines[1] <= the
	// file's last line, else Summarize fails with a *SpanError. Full is
	// exactly those lines; the other levels are theirs as an assembly
	// makes them of a chunk of the file (chunk.Levels of those lines).
	Lines [2]int
	// Cache keeps each level's text and tokens in
	// .ctxpack/cache/summaries/, keyed by the file's path and content id,
	// the level, the tokenizer, the chunker's version and ctxpack's build,
	// and reuses them; a build that cannot be identified caches nothing.
	// It never changes the result.
	Cache bool
}

// summaryCacheVersion changes when the cached levels would differ for
// the same key (rules here, not in the chunker, whose version is in the
// key).
const summaryCacheVersion = 1

// textSectionLines is the most lines the summary of plain text keeps.
const textSectionLines = 20

// Summarize gives the file at the level asked for, as ctxpack puts it in a
// context: an artifact at its artifact levels (frontmatter, first
// section, headings with first paragraphs, all); code and Markdown at
// their extractive levels (chunk.Levels: the doc comment and top-level
// symbols, then signatures, types and doc comments); plain text, which
// the engine shows whole, gets a summary for reading here: its first
// section (up to the first blank line, at most 20 lines) and the count of
// lines left out. Meta is the path, language, line count, bytes and the
// last commit that changed the file when git knows it (an artifact's
// meta is its frontmatter). A level the file does not have is shown at
// the next lower level it has. With opt.Lines, all of this is of those
// lines, cut from the file (redacted as the file would be), and meta
// names them.
func (p *Project) Summarize(ctx context.Context, file string, opt SummarizeOptions) (*Summary, error) {
	want, err := parseLevel(firstNonEmpty(opt.Level, "summary"))
	if err != nil {
		return nil, err
	}
	tok, err := p.Tokenizer(opt.Tokenizer)
	if err != nil {
		return nil, err
	}
	rel, err := project.Resolve(p.Root, p.Dir, file)
	if err != nil {
		return nil, err
	}
	if info, err := fs.Stat(p.FS, rel); err == nil && info.IsDir() {
		return nil, fmt.Errorf("ctxpack: %s is a directory: summarize takes one file ('ctxpack pack %s --depth summary' shows a directory)", file, file)
	}
	text, repaired, err := project.ReadTextLimit(p.FS, rel, p.maxFileBytes())
	if err != nil {
		var tl *project.TooLargeError
		if errors.As(err, &tl) {
			return nil, fmt.Errorf("ctxpack: %s is %s; summarize shows files up to walk.max_file_bytes, as an assembly does: raise it in .ctxpack/config.yaml to summarize this one", rel, tl.Reason())
		}
		return nil, err
	}
	if bin, why := project.Binary([]byte(text[:min(len(text), project.BinaryProbeBytes)])); bin {
		return nil, fmt.Errorf("ctxpack: %s is binary (%s): summarize shows text files", rel, why)
	}
	if strings.IndexByte(text, 0) >= 0 {
		return nil, fmt.Errorf("ctxpack: %s is binary (a NUL byte): summarize shows text files", rel)
	}
	s := &Summary{Path: rel, Level: want.String(), Tokenizer: tok.Name(), Language: firstNonEmpty(chunk.Language(rel), "text"), Warnings: []string{}}
	if repaired {
		s.Warnings = append(s.Warnings, fmt.Sprintf("%s: invalid UTF-8 replaced with U+FFFD", rel))
	}
	fileLines := 0
	if opt.Lines != ([2]int{}) {
		l := opt.Lines
		fileLines = project.CountLines(text)
		if l[0] < 1 || l[1] < l[0] || l[1] > fileLines {
			return nil, &SpanError{Path: rel, Lines: l, FileLines: fileLines}
		}
		a, b := lineBytes(text, l)
		span, warn, err := p.redactSpan(rel, text, a, b)
		if err != nil {
			return nil, err
		}
		if warn != "" {
			s.Warnings = append(s.Warnings, warn)
		}
		text, s.Lines = span, &l
	}

	// The levels' texts, computed at most once.
	var art *artifact.Artifact
	if set, err := p.artifacts(); err == nil && s.Lines == nil {
		for _, a := range set.List {
			if a.Path == rel {
				art = a
			}
		}
	}
	var computed map[pack.Level]string
	levels := func() map[pack.Level]string {
		if computed != nil {
			return computed
		}
		computed = map[pack.Level]string{}
		switch {
		case art != nil:
			for l := artifact.Summary; l <= artifact.Detailed; l++ {
				computed[l] = art.Text(l)
			}
		default:
			summary, detailed := chunk.Levels(rel, []byte(text))
			if summary == "" && detailed == "" {
				summary = firstSection(text)
			}
			computed[pack.Summary], computed[pack.Detailed] = summary, detailed
		}
		return computed
	}
	switch {
	case art != nil:
		s.Kind = "artifact"
	case chunk.Language(rel) == "markdown":
		s.Kind = "markdown"
	case chunk.Language(rel) != "":
		s.Kind = "code"
	default:
		s.Kind = "text"
	}

	type entry struct {
		Has    bool   `json:"has"`
		Text   string `json:"text"`
		Tokens int    `json:"tokens"`
	}
	// get computes a level, or takes it from the cache. The cache is off
	// without opt.Cache, and when the build cannot be identified: a new
	// build may count or cut differently.
	build := ""
	if opt.Cache {
		build = buildID()
	}
	var store *cache.Store
	var cid string
	if build != "" {
		store = cache.New(filepath.Join(p.Root, project.DirCtxpack, "cache", "summaries"), 0)
		cid = project.ContentID(text)
	}
	get := func(l pack.Level, compute func() entry) entry {
		if store == nil {
			return compute()
		}
		// The key is the text's, whole file or lines of it: the same text
		// at the same path has the same levels.
		key, err := cache.Key("summary", summaryCacheVersion, build, chunk.Version, chunk.Backend, s.Kind, rel, cid, l.String(), tok.Name())
		var e entry
		if err == nil && store.Get(key, &e) {
			return e
		}
		e = compute()
		if err == nil {
			p.keepStateIgnored()
			_ = store.Put(key, e) // without the cache the answer is the same
		}
		return e
	}
	meta, full := "", text
	if art != nil {
		meta, full = art.Text(artifact.Meta), art.Text(artifact.Full)
	} else {
		meta = p.metaText(ctx, rel, s.Language, text, s.Lines, fileLines)
	}
	texts := map[pack.Level]entry{pack.Meta: {Has: true, Text: meta, Tokens: tok.Count(meta)}}
	fullTokens := get(pack.Full, func() entry { return entry{Has: true, Tokens: tok.Count(full)} }).Tokens
	texts[pack.Full] = entry{Has: true, Text: full, Tokens: fullTokens} // the text itself is not cached
	for _, l := range []pack.Level{pack.Summary, pack.Detailed} {
		texts[l] = get(l, func() entry {
			t := levels()[l]
			if art == nil && (t == "" || t == text) {
				return entry{} // the engine has no such level for the file
			}
			return entry{Has: true, Text: t, Tokens: tok.Count(t)}
		})
	}
	for l := pack.Full; l >= pack.Meta; l-- {
		if texts[l].Has {
			s.Levels = append(s.Levels, LevelTokens{Level: l.String(), Tokens: texts[l].Tokens})
		}
	}
	shown := want
	for !texts[shown].Has {
		shown--
	}
	s.Shown, s.Text = shown.String(), texts[shown].Text
	redacted, warn, err := p.redactText(rel, s.Text)
	if err != nil {
		return nil, err
	}
	if warn != "" {
		// What is shown is counted as shown.
		s.Text = redacted
		s.Warnings = append(s.Warnings, warn)
		for i := range s.Levels {
			if s.Levels[i].Level == s.Shown {
				s.Levels[i].Tokens = tok.Count(redacted)
			}
		}
	}
	return s, nil
}

// maxFileBytes is walk.max_file_bytes: the largest file an assembly
// reads.
func (p *Project) maxFileBytes() int64 {
	if p.Config.Walk.MaxFileBytes > 0 {
		return p.Config.Walk.MaxFileBytes
	}
	return project.DefaultMaxFileBytes
}

// metaText is the meta level of a file that is not an artifact, or of
// its lines span (text) of the fileLines it has.
func (p *Project) metaText(ctx context.Context, rel, lang, text string, span *[2]int, fileLines int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "path: %s\nlanguage: %s\n", rel, lang)
	if span != nil {
		fmt.Fprintf(&b, "lines: %d-%d of %d\n", span[0], span[1], fileLines)
	} else {
		fmt.Fprintf(&b, "lines: %d\n", project.CountLines(text))
	}
	fmt.Fprintf(&b, "bytes: %d\n", len(text))
	if changed, err := project.LastChanged(ctx, p.Root, map[string]bool{rel: true}); err == nil && changed[rel] > 0 {
		fmt.Fprintf(&b, "last change: %s (git)\n", time.Unix(changed[rel], 0).UTC().Format(time.RFC3339))
	}
	return b.String()
}

// firstSection is the summary of plain text: its first section (leading
// blank lines skipped, up to the first blank line, at most
// textSectionLines lines) and a line counting the lines left out; "" when
// that would be the whole text.
func firstSection(text string) string {
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	i := 0
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	j := i
	for j < len(lines) && j-i < textSectionLines && strings.TrimSpace(lines[j]) != "" {
		j++
	}
	rest := len(lines) - j
	if rest == 0 || j == i {
		return ""
	}
	section := strings.Join(lines[i:j], "")
	if !strings.HasSuffix(section, "\n") {
		section += "\n"
	}
	return fmt.Sprintf("%s[… %d more lines]\n", section, rest)
}

// lineBytes is where lines l (1-based, inclusive) of text are, which has
// them: from the start of the first to the end of the last, its newline
// included.
func lineBytes(text string, l [2]int) (start, end int) {
	for range l[0] - 1 {
		start += strings.IndexByte(text[start:], '\n') + 1
	}
	end = start
	for range l[1] - l[0] + 1 {
		i := strings.IndexByte(text[end:], '\n')
		if i < 0 {
			return start, len(text)
		}
		end += i + 1
	}
	return start, end
}

// SpanError is a span of lines a file does not have: its first line is
// below 1 or after its last, or its last is after the file's. It is the
// caller's mistake, as a *PathError is; the front ends word it in their
// own terms (the CLI's summarize FILE:START-END, the MCP context tool's
// target PATH:START-END).
type SpanError struct {
	Path      string // the file, relative to the project root
	Lines     [2]int // the span asked for
	FileLines int    // the lines the file has
}

func (e *SpanError) Error() string {
	return fmt.Sprintf("ctxpack: %s: no lines %d-%d: %s", e.Path, e.Lines[0], e.Lines[1], e.Problem())
}

// Problem says what is wrong with the span and which spans are valid.
func (e *SpanError) Problem() string {
	if e.FileLines == 0 {
		return "the file is empty: it has no lines"
	}
	what := fmt.Sprintf("the file ends at line %d", e.FileLines)
	switch {
	case e.Lines[0] < 1:
		what = "lines are numbered from 1"
	case e.Lines[1] < e.Lines[0]:
		what = "the first line is after the last"
	}
	return fmt.Sprintf("%s (valid: 1 <= first <= last <= %d)", what, e.FileLines)
}
