package main

import "testing"

func TestCleanMessage(t *testing.T) {
	tests := []struct {
		name, raw        string
		kind, subj, text string
	}{
		{
			name: "pull request number and trailers",
			raw:  "Fix crash when the config file is empty (#1234)\n\nThe loader indexed the first line.\n\nSigned-off-by: A B <a@example.com>\nCo-authored-by: C D <c@example.com>\nReviewed-by: E\nChange-Id: I0123456789abcdef\n",
			subj: "Fix crash when the config file is empty",
			text: "Fix crash when the config file is empty\n\nThe loader indexed the first line.",
		},
		{
			name: "closing lines and a pull request URL",
			raw:  "Raise ValueError for a negative timeout\n\nFixes #12\nCloses: #13, #14.\nRefs owner/repo#7\nSee https://github.com/o/r/pull/99 for the discussion\nhttps://github.com/o/r/issues/98\n",
			subj: "Raise ValueError for a negative timeout",
			text: "Raise ValueError for a negative timeout\n\nSee for the discussion",
		},
		{
			name: "inline closer inside a sentence keeps the sentence",
			raw:  "Warn when an argument name collides\n\nFix parsing when a parameter is named `help`, closing #2819",
			subj: "Warn when an argument name collides",
			text: "Warn when an argument name collides\n\nFix parsing when a parameter is named `help`",
		},
		{
			name: "a leading closer leaves no stray colon",
			raw:  "Fix #77: Raise `ValidationError` on non-iterables with many=True",
			subj: "Raise `ValidationError` on non-iterables with many=True",
			text: "Raise `ValidationError` on non-iterables with many=True",
		},
		{
			name: "conventional prefix is kept as the kind",
			raw:  "fix(buildFullPath): keep the base URL when the request URL is absolute (#6192)",
			kind: "fix",
			subj: "keep the base URL when the request URL is absolute",
			text: "keep the base URL when the request URL is absolute",
		},
		{
			name: "squash merge noise and a repeated subject",
			raw:  "Keep parentheses around an annotated target (#5321)\n\n* Keep parentheses around an annotated target\n\n* Add changelog entry\n\n* Apply suggestions from code review\n\n* Tweak\n* Change wording\n\n* Collapse the redundant parentheses inside it\n\n---------\n\nCo-authored-by: x <x@example.com>",
			subj: "Keep parentheses around an annotated target",
			text: "Keep parentheses around an annotated target\n\n* Collapse the redundant parentheses inside it",
		},
		{
			name: "lines that only list files",
			raw:  "Handle an empty body in the decoder\n\nM src/pkg/decode.py\n* src/pkg/a.py, src/pkg/b.py\nlib/\nThe decoder now returns b''.",
			subj: "Handle an empty body in the decoder",
			text: "Handle an empty body in the decoder\n\nThe decoder now returns b''.",
		},
		{
			name: "template comments, checkboxes, pre-commit and Mercurial leftovers",
			raw:  "Should not hang on a closed pipe\n<!-- Thanks for contributing! -->\n- [x] Added tests\n- [ ] Updated docs\n[pre-commit.ci] auto fixes from pre-commit.com hooks\n--HG--\nbranch: trunk\n(cherry picked from commit 0123abcd)",
			subj: "Should not hang on a closed pipe",
			text: "Should not hang on a closed pipe",
		},
		{
			name: "code blocks are kept as they are",
			raw:  "Fix wrong column on tabs\n\n```\n$ tool --col\n  Fixes #1\n```\n",
			subj: "Fix wrong column on tabs",
			text: "Fix wrong column on tabs\n\n```\n$ tool --col\n  Fixes #1\n```",
		},
		{
			name: "dots inside words stay attached",
			raw:  "Fix automatic .read() when content is a str, see #5\n\nFile extensions .graphql and .gql are matched.",
			subj: "Fix automatic .read() when content is a str",
			text: "Fix automatic .read() when content is a str\n\nFile extensions .graphql and .gql are matched.",
		},
		{
			name: "footnote left without its URL",
			raw:  "Support the WGSL extension in the types table\n\nAs asked for[1].\n\n[1]: https://github.com/o/r/issues/3\n",
			subj: "Support the WGSL extension in the types table",
			text: "Support the WGSL extension in the types table\n\nAs asked for[1].",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := cleanMessage(tt.raw)
			if m.Kind != tt.kind || m.Subject != tt.subj || m.Text != tt.text {
				t.Errorf("cleanMessage(%q)\n got kind %q subject %q text\n%s\nwant kind %q subject %q text\n%s", tt.raw, m.Kind, m.Subject, m.Text, tt.kind, tt.subj, tt.text)
			}
		})
	}
}

func TestJudge(t *testing.T) {
	tests := []struct {
		raw, want string
	}{
		{"Fix crash when the config file is empty and has a BOM", ""},
		{"The progress bar should land on its final position at exit", ""},
		{"fix(http): keep the base URL of the configured instance", ""},
		{"Do not follow redirects to another host by default anymore", ""},
		{"Fix crash on empty file (#12)", "short"},
		{"Fix crash when empty\n\nFixes #12\nSigned-off-by: a <a@b.c>", "short"},
		{"Release version 8.4.2 with the fixes for the pager crash", "release"},
		{"Bump actions/setup-python from 6.3.0 to 7.0.0 fixing the failing build", "dependency"},
		{"Fix a typo in the error message raised when parsing fails", "typo"},
		{"docs: fix the magic trailing comma documentation link that was broken", "docs"},
		{"Fix docs for the pager that fails to start on Windows", "docs"},
		{"Fix the CI workflow failing on Windows runners since yesterday", "ci"},
		{"Fix mypy errors that the new release of the checker raises", "style"},
		{"Refactor pager stream handling so that it does not fail on errors", "refactor"},
		{"Revert \"Fix the pager when it fails\" since it broke the build", "revert"},
		{"Fix flaky test of the pager that fails when the machine is slow", "test"},
		{"Fix test_ne in test_cmp.py for Python 3.13 where indents changed", "test"},
		{"Add tests for the pager failing when stdout is closed early", "test"},
		{"Added specs for errors with text/plain and application/json", "test"},
		{"chore(deps): update the lock file so the broken build works again", "chore"},
		{"Merge branch 'stable' into main, which fixes the pager crash", "merge"},
		{"Add a new command for listing the plugins installed in a venv", "not-issue-like"},
		{"Improve performance of the tokenizer by caching the compiled patterns", "not-issue-like"},
	}
	for _, tt := range tests {
		if got := judge(cleanMessage(tt.raw)); got != tt.want {
			t.Errorf("judge(%q) = %q, want %q", tt.raw, got, tt.want)
		}
	}
}

func TestWords(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		{"", 0},
		{"Fix crash on empty file", 5},
		{"a -- 123 `x` #4 3.2", 2},
	}
	for _, tt := range tests {
		if got := words(tt.text); got != tt.want {
			t.Errorf("words(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
}
