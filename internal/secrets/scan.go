package secrets

import (
	"encoding/base64"
	"strings"
)

// minPrefixWord is the shortest word a prefix rule can match.
const minPrefixWord = 20

// stride is the step of the sampling that finds long words: every run of
// at least stride word bytes holds a multiple of stride, so looking at
// those bytes alone finds every word a prefix rule can match, and most
// bytes of a text are never looked at.
const stride = 16

// scan returns the candidate findings in text, unordered.
func scan(path, text string) []match {
	var found []match
	found = privateKeys(text, found)
	found = urlPasswords(text, found)
	found = slackWebhooks(text, found)
	found = longWords(text, found)
	found = assignments(path, text, found)
	found = authHeaders(text, found)
	return found
}

// longWords finds the secrets that are words of their own: a prefix
// rule's, a Telegram or a Discord bot token. It looks at every stride-th
// byte; one inside a word is grown into the word's whole run.
func longWords(text string, found []match) []match {
	n := len(text)
	wb := wordByte
	for k := 0; k < n; k += stride {
		if !wb[text[k]] {
			continue
		}
		s, e := k, k+1
		for s > 0 && wb[text[s-1]] {
			s--
		}
		for e < n && wb[text[e]] {
			e++
		}
		if e-s >= stride {
			found = longWord(text, s, e, found)
		}
		k = (e / stride) * stride // the loop steps past e
	}
	return found
}

// longWord checks the run of word bytes [s, e).
func longWord(text string, s, e int, found []match) []match {
	w := text[s:e]
	switch {
	case len(w) == 35 && w[0] == 'A' && w[1] == 'A' && s > 0 && text[s-1] == ':':
		if m, ok := telegram(text, s, e); ok {
			return append(found, m)
		}
	case len(w) >= 59 && len(w) <= 80 && (w[0] == 'M' || w[0] == 'N' || w[0] == 'O') && (s == 0 || !alnum[text[s-1]]):
		if discord(w) {
			return append(found, match{rule: "discord-bot-token", start: s, end: e})
		}
	}
	// A prefix may start the run or any place in it after a byte that is
	// not a letter or digit: a/ghp_…, x.AKIA….
	for i := s; i+minPrefixWord <= e; i++ {
		if (i > 0 && alnum[text[i-1]]) || len(prefixRules[text[i]]) == 0 {
			continue
		}
		rule, l := matchPrefix(text[i:e])
		if rule == "" {
			continue
		}
		found = append(found, match{rule: rule, start: i, end: i + l})
		if rule == "aws-access-key-id" {
			if m, ok := awsSecretNear(text, i+l); ok {
				found = append(found, m)
			}
		}
		i += l - 1
	}
	return found
}

// assignments finds credentials assigned to names: at each '=' and ':',
// the word before it (past blanks and a closing quote) is read as a name.
func assignments(path, text string, found []match) []match {
	eq, colon := nextByte(text, 0, '='), nextByte(text, 0, ':')
	for eq >= 0 || colon >= 0 {
		var k int
		if colon < 0 || (eq >= 0 && eq < colon) {
			k, eq = eq, nextByte(text, eq+1, '=')
		} else {
			k, colon = colon, nextByte(text, colon+1, ':')
		}
		j := k
		for j > 0 && j > k-8 && (text[j-1] == ' ' || text[j-1] == '\t') {
			j--
		}
		if j > 0 && (text[j-1] == '"' || text[j-1] == '\'') {
			j--
		}
		i := j
		for i > 0 && j-i <= 64 && wordByte[text[i-1]] {
			i--
		}
		if j-i < 3 || j-i > 64 {
			continue
		}
		if m, ok := assignment(path, text, i, j); ok {
			found = append(found, m)
		}
	}
	return found
}

// nextByte is the index of the first c in text at or after from, or -1.
func nextByte(text string, from int, c byte) int {
	if from >= len(text) {
		return -1
	}
	if i := strings.IndexByte(text[from:], c); i >= 0 {
		return from + i
	}
	return -1
}

// authHeaders finds "Basic <user:password>" and "Bearer <token>", either
// capitalized: one search for each word's tail, the first letter checked
// after.
func authHeaders(text string, found []match) []match {
	for _, h := range []struct {
		tail string // the word without its first letter, and a space
		find func(text string, j int) (match, bool)
	}{{"asic ", basicAuth}, {"earer ", bearer}} {
		for from := 1; from < len(text); {
			k := strings.Index(text[from:], h.tail)
			if k < 0 {
				break
			}
			k += from
			from = k + len(h.tail)
			if c := text[k-1] | 0x20; c != 'b' || (k > 1 && wordByte[text[k-2]]) {
				continue
			}
			if m, ok := h.find(text, k+len(h.tail)-1); ok {
				found = append(found, m)
			}
		}
	}
	return found
}

// privateKeys finds PEM and PGP private key blocks, BEGIN line to END
// line, with a body. A block without its END runs to the last line that
// looks like its body.
func privateKeys(text string, found []match) []match {
	from := 0
	for {
		k := strings.Index(text[from:], "PRIVATE KEY")
		if k < 0 {
			return found
		}
		k += from
		from = k + len("PRIVATE KEY")
		// The BEGIN marker before it, on its line.
		ls := strings.LastIndexByte(text[:k], '\n') + 1
		b := strings.LastIndex(text[ls:k], "-----BEGIN ")
		if b < 0 {
			continue
		}
		start := ls + b
		hdrEnd := strings.Index(text[k:], "-----")
		if hdrEnd < 0 {
			continue
		}
		bodyStart := k + hdrEnd + len("-----")
		end := -1
		if e := strings.Index(text[bodyStart:], "-----END "); e >= 0 {
			e += bodyStart
			if c := strings.Index(text[e+len("-----END "):], "-----"); c >= 0 && c < 64 {
				end = e + len("-----END ") + c + len("-----")
				if body := text[bodyStart:e]; countB64(body) < 20 {
					continue
				}
			}
		}
		if end < 0 {
			end = keyBodyEnd(text, bodyStart)
			if countB64(text[bodyStart:end]) < 20 {
				continue
			}
		}
		found = append(found, match{rule: "private-key", start: start, end: end})
		from = end
	}
}

// countB64 counts base64 characters in s.
func countB64(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if b64[s[i]] {
			n++
		}
	}
	return n
}

// keyBodyEnd is where the body of a key block with no END line ends:
// after the last of the lines from `from` that hold only base64, header
// fields ("Proc-Type: …") or escaped newlines.
func keyBodyEnd(text string, from int) int {
	end := from
	i := from
	for i < len(text) {
		nl := strings.IndexByte(text[i:], '\n')
		line := text[i:]
		if nl >= 0 {
			line = text[i : i+nl]
		}
		t := strings.TrimSpace(line)
		if t != "" && !bodyLine(t) {
			break
		}
		if t != "" {
			end = i + len(strings.TrimRight(line, " \t\r"))
		}
		if nl < 0 {
			break
		}
		i += nl + 1
	}
	return end
}

func bodyLine(t string) bool {
	if strings.Contains(t, ": ") { // Proc-Type: 4,ENCRYPTED
		return true
	}
	for i := 0; i < len(t); i++ {
		if c := t[i]; !b64[c] && c != '=' && c != '\\' {
			return false
		}
	}
	return true
}

// urlPasswords finds the password of user:password@host in URLs.
func urlPasswords(text string, found []match) []match {
	from := 0
	for {
		k := strings.Index(text[from:], "://")
		if k < 0 {
			return found
		}
		k += from
		from = k + 3
		s := k
		for s > 0 && (alnum[text[s-1]] || text[s-1] == '+' || text[s-1] == '.' || text[s-1] == '-') {
			s--
		}
		if s == k { // no scheme
			continue
		}
		// The authority's userinfo: up to an '@' before any '/', '?',
		// '#', space or quote.
		u := from
		at := -1
		for i := u; i < len(text) && i-u < 256; i++ {
			c := text[i]
			if c == '@' {
				at = i
			}
			if c == '/' || c == '?' || c == '#' || c <= ' ' || c == '"' || c == '\'' || c == '`' || c == '<' || c == '>' {
				break
			}
		}
		if at < 0 {
			continue
		}
		colon := strings.IndexByte(text[u:at], ':')
		if colon < 0 {
			continue
		}
		ps := u + colon + 1
		pw := text[ps:at]
		if len(pw) < 3 || placeholder(pw) || pw[0] == '$' || pw[0] == ':' || bracketed(pw) {
			continue
		}
		found = append(found, match{rule: "url-password", start: ps, end: at})
		from = at
	}
}

// slackWebhooks finds the secret path of Slack incoming webhooks.
func slackWebhooks(text string, found []match) []match {
	const host = "hooks.slack.com/"
	from := 0
	for {
		k := strings.Index(text[from:], host)
		if k < 0 {
			return found
		}
		k += from + len(host)
		from = k
		rest := text[k:]
		var p string
		switch {
		case strings.HasPrefix(rest, "services/"):
			p = "services/"
		case strings.HasPrefix(rest, "workflows/"):
			p = "workflows/"
		case strings.HasPrefix(rest, "triggers/"):
			p = "triggers/"
		default:
			continue
		}
		s := k + len(p)
		e := s
		for e < len(text) && (alnum[text[e]] || text[e] == '/') {
			e++
		}
		v := text[s:e]
		if strings.Count(v, "/") < 2 || len(v) < 30 {
			continue
		}
		found = append(found, match{rule: "slack-webhook", start: s, end: e})
		from = e
	}
}

// basicAuth finds "Basic <base64 of user:password>".
func basicAuth(text string, j int) (match, bool) {
	if j >= len(text) || text[j] != ' ' {
		return match{}, false
	}
	s := j + 1
	e := s + run(text[s:], b64)
	for e < len(text) && text[e] == '=' {
		e++
	}
	v := text[s:e]
	if len(v) < 8 {
		return match{}, false
	}
	d, err := base64.StdEncoding.DecodeString(v)
	if err != nil {
		return match{}, false
	}
	user, pw, ok := strings.Cut(string(d), ":")
	if !ok || user == "" || len(pw) < 6 || placeholder(pw) || !printable(string(d)) || strings.Contains(pw, " ") {
		return match{}, false
	}
	return match{rule: "basic-auth", start: s, end: e, generic: true}, true
}

// bearer finds "Bearer <token>".
func bearer(text string, j int) (match, bool) {
	if j >= len(text) || text[j] != ' ' {
		return match{}, false
	}
	s := j + 1
	e := s + run(text[s:], wordByte)
	for e < len(text) && text[e] == '=' {
		e++
	}
	v := text[s:e]
	if len(v) < 20 || placeholder(v) || classes(v) < 2 || entropy(v) < 3.5 {
		return match{}, false
	}
	return match{rule: "bearer-token", start: s, end: e, generic: true}, true
}

// telegram finds a bot token: 8 to 10 digits, ':', and the 35-character
// word at [i, j) that starts with AA.
func telegram(text string, i, j int) (match, bool) {
	d := i - 1
	s := d
	for s > 0 && digit[text[s-1]] {
		s--
	}
	if n := d - s; n < 8 || n > 10 || (s > 0 && alnum[text[s-1]]) {
		return match{}, false
	}
	if run(text[i:j], b64url) != j-i {
		return match{}, false
	}
	return match{rule: "telegram-bot-token", start: s, end: j}, true
}

// discord is a bot token: base64 of a numeric user id, a dot, 6
// characters, a dot, and 27 to 38 more.
func discord(w string) bool {
	p := strings.Split(w, ".")
	if len(p) != 3 || len(p[0]) < 23 || len(p[0]) > 28 || len(p[1]) != 6 || len(p[2]) < 27 || len(p[2]) > 38 {
		return false
	}
	for _, s := range p {
		if run(s, b64url) != len(s) {
			return false
		}
	}
	id, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(p[0], "="))
	if err != nil || len(id) < 17 {
		return false
	}
	return run(string(id), digit) == len(id)
}

func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}

// awsSecretNear finds the secret access key that goes with an access key
// id: a word of exactly 40 base64 characters, random-looking, in the 300
// bytes after the id (the next argument, field or line).
func awsSecretNear(text string, from int) (match, bool) {
	end := min(len(text), from+300)
	for i := from; i < end; {
		if !b64[text[i]] {
			i++
			continue
		}
		j := i + run(text[i:], b64)
		if j-i == 40 && (i == 0 || !wordByte[text[i-1]] || text[i-1] == ' ') && (j == len(text) || !wordByte[text[j]]) {
			if v := text[i:j]; classes(v) >= 3 && entropy(v) >= 4.0 && !strings.Contains(v, "EXAMPLE") {
				return match{rule: "aws-secret-access-key", start: i, end: j}, true
			}
		}
		i = j
	}
	return match{}, false
}

// bracketed reports whether s is one bracketed group — {name}, [secure],
// <password>, (pw) — a template variable or a mask, not a password:
// brackets may not stand unescaped in a URL's userinfo.
func bracketed(s string) bool {
	closer := map[byte]byte{'{': '}', '[': ']', '<': '>', '(': ')'}[s[0]]
	return closer != 0 && s[len(s)-1] == closer && strings.IndexByte(s[1:len(s)-1], closer) < 0
}
