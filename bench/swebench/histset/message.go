package main

import (
	"regexp"
	"strings"
)

// ref is one issue or pull-request reference: #12, gh-12, owner/name#12,
// or a URL.
const ref = `(?:#\d+|gh-\d+|[\w.-]+/[\w.-]+#\d+|https?://\S+)`

// refs is a list of refs joined by commas, "and" or spaces.
const refs = ref + `(?:\s*(?:,|\band\b|&)?\s*` + ref + `)*`

// closer is a word that links a change to an issue or pull request.
const closer = `(?:fix|fixes|fixed|fixing|close|closes|closed|closing|resolve|resolves|resolved|resolving|ref|refs|references|see|see also|related to|related|relates to|part of|addresses|address|follow(?:s|ing)?[ -]?up (?:on|to|of)|follow[ -]up|follows|issue|bug|pr|pull request|backport of|cherry[- ]picked from)`

var (
	htmlComment = regexp.MustCompile(`(?s)<!--.*?-->`)
	// trailer is a git trailer that names a person, a review or a change.
	trailer = regexp.MustCompile(`(?i)^\s*(?:[\w-]+-by|change-id|reviewed-on|pr-url|pr-close|git-svn-id|differential revision|original-commit|cc)\s*:`)
	// closerLine is a line that only links issues: "Fixes #12", "Refs: a/b#3, #4."
	closerLine = regexp.MustCompile(`(?i)^\s*(?:[*-]\s+)?` + closer + `\s*:?\s*` + refs + `\s*[.;]?\s*$`)
	// bareRefs is a line of references and nothing else.
	bareRefs = regexp.MustCompile(`(?i)^\s*(?:[*-]\s+)?` + refs + `\s*[.;]?\s*$`)
	// parenRefs is "(#1234)", "(fixes #12, #13)".
	parenRefs = regexp.MustCompile(`(?i)\s*[(\[]\s*(?:` + closer + `\s*:?\s*)?` + refs + `\s*[)\]]`)
	// inlineCloser is ", closing #2819" or "fixes #12" inside a sentence.
	inlineCloser = regexp.MustCompile(`(?i),?\s*\b` + closer + `\s*:?\s*` + `(?:#\d+|gh-\d+|[\w.-]+/[\w.-]+#\d+|https?://github\.com/\S+)` + `(?:\s*(?:,|\band\b|&)?\s*` + ref + `)*`)
	// prURL is a link to a pull request, issue, commit or discussion.
	prURL = regexp.MustCompile(`(?i)<?https?://(?:www\.)?github\.com/[\w.-]+/[\w.-]+/(?:pull|pulls|issues|commit|commits|compare|discussions)(?:/\S*)?>?`)
	// mdLinkEmpty is what a Markdown link is left as once its URL is gone.
	mdLinkEmpty = regexp.MustCompile(`\[([^\]]*)\]\(\s*\)`)
	separator   = regexp.MustCompile(`^\s*(?:-{3,}|={3,}|\*{3,}|_{3,})\s*$`)
	checkbox    = regexp.MustCompile(`^\s*[*-]\s*\[[ xX]\]`)
	// squashNoise is a bullet a squash merge keeps from a work-in-progress
	// commit: "* Update foo.py", "* Apply suggestions from code review".
	squashNoise = regexp.MustCompile(`(?i)^\s*[*-]\s+(?:update\b|merge\b|apply (?:suggestions?|review)|address(?:ed|es)? (?:review|comments?|feedback)|review\b|wip\b|typo|lint|fix (?:lint|linting|tests?|typo|typos|ci|build|flake8|mypy|formatting|format|style|pre-commit|ruff|black)\b|(?:run|ran) (?:black|ruff|prettier|gofmt|pre-commit|isort)|format(?:ting)?\b|reformat|changelog|add (?:a |an )?(?:changelog|news|release note|changes)|add(?:ed)? (?:more )?tests?\b|tests?\b|docs?\b|revert\b|cleanup\b|clean up\b|pre-commit|\[pre-commit\.ci\]|whitespace\b|tweaks?\b|(?:change |improve )?wording\b|remove (?:unused|debug)|rename\b|comments?\b|simplify\b|oops|minor\b|nit\b|fixup\b)`)
	preCommit   = regexp.MustCompile(`(?i)^\s*(?:[*-]\s+)?(?:\[pre-commit\.ci\]|for more information, see https://pre-commit\.ci)`)
	cherryPick  = regexp.MustCompile(`(?i)^\s*\(cherry picked from commit [0-9a-f]+\)\s*$`)
	revertLine  = regexp.MustCompile(`(?i)^\s*this reverts commit [0-9a-f]+`)
	// hgLine is what a conversion from Mercurial leaves: "--HG--", "branch: trunk".
	hgLine = regexp.MustCompile(`^\s*(?:--HG--|branch\s*:\s*\S+|extra\s*:\s*.*|rename\s*:\s*.*)\s*$`)
	// fileToken is a path: "src/a.py", "README.md", "a/b/".
	fileToken = regexp.MustCompile(`^(?:[\w.@+-]+/)*[\w@+-][\w.@+-]*\.[A-Za-z0-9]{1,8}$|^(?:[\w.@+-]+/)+[\w.@+-]*$`)
	// conventional is a conventional-commit prefix: "fix(parser)!: ".
	conventional = regexp.MustCompile(`(?i)^\s*(fix|feat|feature|bug|bugfix|hotfix|perf|refactor|chore|docs?|style|tests?|ci|build|revert|deps|release)(\([^)]*\))?!?:\s*`)
	spaces       = regexp.MustCompile(`[ \t]{2,}`)
	blankRuns    = regexp.MustCompile(`\n{3,}`)
	spaceBefore  = regexp.MustCompile(`[ \t]+([,.;:)])([ \t]|$)`)
	leadPunct    = regexp.MustCompile(`^[\s,.;:]+`)
	footnote     = regexp.MustCompile(`^\s*\[\d+\]:?\s*$`)
)

// message is a commit message split into what the selection looks at.
type message struct {
	Kind    string // the conventional-commit type, lower case ("fix"), or ""
	Subject string // the first line, cleaned, without the conventional prefix
	Text    string // subject and body, cleaned: the problem statement
}

// cleanMessage turns a commit message into issue-like text: it drops
// trailers, issue and pull-request references, links to pull requests,
// pull-request template leftovers, squash-merge noise and lines that only
// list files, and strips a conventional-commit prefix off the subject.
func cleanMessage(raw string) message {
	raw = strings.ReplaceAll(raw, "\r\n", "\n")
	raw = htmlComment.ReplaceAllString(raw, "")
	lines := strings.Split(strings.TrimSpace(raw), "\n")
	var m message
	subject := lines[0]
	if c := conventional.FindStringSubmatch(subject); c != nil {
		m.Kind = strings.ToLower(c[1])
		subject = subject[len(c[0]):]
	}
	subject = leadPunct.ReplaceAllString(cleanLine(subject), "")
	m.Subject = subject
	out := []string{subject}
	inFence := false
	for _, l := range lines[1:] {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			inFence = !inFence
			out = append(out, strings.TrimRight(l, " \t"))
			continue
		}
		if inFence {
			out = append(out, strings.TrimRight(l, " \t"))
			continue
		}
		if dropLine(l) {
			continue
		}
		c := cleanLine(l)
		if strings.Trim(c, " \t*-.,;:") == "" {
			if strings.TrimSpace(l) == "" {
				out = append(out, "")
			}
			continue
		}
		if sameText(c, subject) || footnote.MatchString(c) {
			continue
		}
		out = append(out, c)
	}
	text := strings.Join(out, "\n")
	text = blankRuns.ReplaceAllString(text, "\n\n")
	m.Text = strings.TrimSpace(text)
	return m
}

// dropLine reports whether a body line carries nothing an issue would say.
func dropLine(l string) bool {
	switch {
	case trailer.MatchString(l), closerLine.MatchString(l), bareRefs.MatchString(l),
		separator.MatchString(l), checkbox.MatchString(l), squashNoise.MatchString(l),
		preCommit.MatchString(l), cherryPick.MatchString(l), revertLine.MatchString(l), hgLine.MatchString(l):
		return true
	}
	return fileList(l)
}

// cleanLine removes references and pull-request links from one line.
func cleanLine(l string) string {
	l = prURL.ReplaceAllString(l, "")
	l = mdLinkEmpty.ReplaceAllString(l, "$1")
	l = parenRefs.ReplaceAllString(l, "")
	l = inlineCloser.ReplaceAllString(l, "")
	l = spaceBefore.ReplaceAllString(l, "$1$2")
	l = strings.TrimRight(l, " \t")
	lead := len(l) - len(strings.TrimLeft(l, " \t"))
	return l[:lead] + spaces.ReplaceAllString(l[lead:], " ")
}

// fileList reports whether a line only names files, as in "M src/a.py" or
// "* a.go, b.go".
func fileList(l string) bool {
	l = strings.TrimSpace(l)
	l = strings.TrimLeft(l, "*-+ \t")
	fields := strings.FieldsFunc(l, func(r rune) bool { return r == ' ' || r == '\t' || r == ',' })
	if len(fields) == 0 {
		return false
	}
	if len(fields) > 1 && len(fields[0]) == 1 && strings.Contains("MADRC", fields[0]) {
		fields = fields[1:]
	}
	for _, f := range fields {
		f = strings.Trim(f, "`'\":;")
		if !fileToken.MatchString(f) || strings.HasSuffix(f, ".") {
			return false
		}
	}
	return true
}

func sameText(a, b string) bool {
	norm := func(s string) string {
		s = strings.TrimLeft(strings.TrimSpace(s), "*-+ ")
		if c := conventional.FindStringIndex(s); c != nil {
			s = s[c[1]:]
		}
		return strings.ToLower(strings.TrimRight(s, ". "))
	}
	return norm(a) == norm(b)
}

// words counts the words of text: runs of non-space holding a letter.
func words(text string) int {
	n := 0
	for _, f := range strings.Fields(text) {
		if strings.IndexFunc(f, isLetter) >= 0 {
			n++
		}
	}
	return n
}

func isLetter(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
}

var (
	// excludedKind is a conventional-commit type that never fixes behaviour.
	excludedKind = map[string]string{
		"chore": "chore", "docs": "docs", "doc": "docs", "style": "style", "refactor": "refactor",
		"test": "test", "tests": "test", "ci": "ci", "build": "build", "revert": "revert",
		"deps": "dependency", "release": "release",
	}
	// excludedSubject names the kinds of change that are not a fix of
	// something a user sees, matched against the subject.
	excludedSubject = []struct {
		why string
		re  *regexp.Regexp
	}{
		{"release", regexp.MustCompile(`(?i)^\s*(?:release|releasing|prepare (?:for )?(?:the )?release|prep(?:are)? v?\d|version\b|v?\d+\.\d+(?:\.\d+)?\b|(?:update|bump|set) (?:the )?version|[\w-]+-\d+\.\d+\.\d+$)|\bchangelog\b|\bchanges\.(?:rst|md)\b|\brelease notes?\b`)},
		{"dependency", regexp.MustCompile(`(?i)\bbump(?:s|ed|ing)?\b|\bdependabot\b|\bdependenc(?:y|ies)\b|\bdeps\b|\brequirements(?:\.txt)?\b|\bgo\.mod\b|\bpackage(?:-lock)?\.json\b|\bcargo\.(?:toml|lock)\b|\bupgrade[sd]? (?:\S+ )?to v?\d`)},
		{"typo", regexp.MustCompile(`(?i)\btypos?\b|\bspelling\b|\bmisspell|\bgrammar\b|\bwording\b`)},
		{"docs", regexp.MustCompile(`(?i)\bdocs?\b|\bdocumentation\b|\bdocstrings?\b|\breadme\b|\bexamples?\b|\bfaq\b|\btutorial\b|\bgodoc\b|\bjsdoc\b|\brustdoc\b|\bdocument(?:s|ed|ing)?\b|\blicen[cs]e\b`)},
		{"ci", regexp.MustCompile(`(?i)\bci\b|\bgithub actions?\b|\bworkflows?\b|\btravis\b|\bappveyor\b|\bazure pipelines\b|\bcodecov\b|\bcoverage\b|\btox\b|\bnox\b|\bpre-commit\b|\bgoreleaser\b|\bci:`)},
		{"style", regexp.MustCompile(`(?i)\blint(?:s|ing|er|ers)?\b|\bflake8\b|\bpylint\b|\bmypy\b|\bpyright\b|\bruff\b|\bisort\b|\bprettier\b|\beslint\b|\bclippy\b|\brustfmt\b|\bgofmt\b|\bgoimports\b|\bgolangci\b|\bstaticcheck\b|\bgo vet\b|\bwhitespace\b|\breformat|\bcode style\b|\bcoding style\b|\btype (?:hints?|annotations?|checking|checker)\b|\btyping\b|\btype[: ]ignore\b`)},
		{"refactor", regexp.MustCompile(`(?i)\brefactor|\bclean ?up\b|\bclean-up\b|\bcleanups\b|\brestructur|\breorganiz|\brename[sd]?\b|\bmove[sd]?\b|\bsimplif|\btidy\b|\bdead code\b|\bunused\b|\bmodernize\b|\bdeduplicate\b`)},
		{"revert", regexp.MustCompile(`(?i)^\s*revert\b|\breverts?\b|\bundo\b|\broll ?back\b`)},
		{"test", regexp.MustCompile(`(?i)^\s*(?:add(?:ed|s)?|update[sd]?|improve[sd]?|fix(?:e[sd])?|more|increase|skip|enable|disable|run)?\s*(?:the |a |an |some |missing |more |regression |unit |flaky )*(?:tests?|specs?|testing|test cases?|test suite|benchmarks?|coverage)\b|\bflaky\b|\btest_\w+|\w+_test\.\w+`)},
		{"merge", regexp.MustCompile(`(?i)^\s*merge\b`)},
		{"wip", regexp.MustCompile(`(?i)^\s*(?:wip|fixup!|squash!|amend!)`)},
	}
	// issueLike is a word a bug report or a behaviour change uses.
	issueLike = regexp.MustCompile(`(?i)\b(?:fix(?:es|ed|ing)?|bugs?|buggy|errors?|erroneous(?:ly)?|fail(?:s|ed|ing|ure|ures)?|crash(?:es|ed|ing)?|wrong(?:ly)?|incorrect(?:ly)?|broken|breaks?|regression|should(?:n't)?|when(?:ever)?|instead|rais(?:e|es|ed|ing)|exceptions?|panic(?:s|ked|king)?|hang(?:s|ing)?|deadlock(?:s|ed)?|leak(?:s|ed|ing)?|missing|unexpected(?:ly)?|(?:does|do|did|is|was|are|were|can|could|would)n't|(?:does|do|did|is|was|can) not|cannot|ignor(?:e|es|ed|ing)|respect(?:s|ed|ing)?|invalid|mistaken(?:ly)?|accidental(?:ly)?|properly|correct(?:ly|ed)?|handle[sd]?|unhandled|overflow|infinite)\b`)
)

// minWords is the fewest words a cleaned message must have.
const minWords = 8

// judge decides whether a cleaned message reads like an issue: it returns
// "" for yes, or the reason it does not.
func judge(m message) string {
	if why, ok := excludedKind[m.Kind]; ok {
		return why
	}
	if words(m.Text) < minWords {
		return "short"
	}
	for _, e := range excludedSubject {
		if e.re.MatchString(m.Subject) {
			return e.why
		}
	}
	if !issueLike.MatchString(m.Subject) && m.Kind != "fix" && m.Kind != "bug" && m.Kind != "bugfix" && m.Kind != "hotfix" {
		return "not-issue-like"
	}
	return ""
}
