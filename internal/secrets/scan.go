package secrets

import (
	"encoding/base64"
	"strings"
)

// minPrefixWord is the shortest word a prefix rule can match.
const minPrefixWord = 20

// scan returns the candidate findings in text, unordered.
func scan(path, text string) []match {
	var found []match
	found = privateKeys(text, found)
	found = urlPasswords(text, found)
	found = slackWebhooks(text, found)
	n := len(text)
	wb := wordByte
	for i := 0; i < n; {
		if !wb[text[i]] {
			i++
			continue
		}
		j := i + 1
		for j < n && wb[text[j]] {
			j++
		}
		w := text[i:j]
		if len(w) >= minPrefixWord && len(prefixRules[w[0]]) > 0 && (i == 0 || !alnum[text[i-1]]) {
			if rule, l := matchPrefix(w); rule != "" {
				found = append(found, match{rule: rule, start: i, end: i + l})
				if rule == "aws-access-key-id" {
					if m, ok := awsSecretNear(text, i+l); ok {
						found = append(found, m)
					}
				}
				i += l
				continue
			}
		}
		if len(w) >= 3 && assignsNext(text, j) {
			if m, ok := assignment(path, text, i, j); ok {
				found = append(found, m)
			}
		}
		switch {
		case w == "Basic" || w == "basic":
			if m, ok := basicAuth(text, j); ok {
				found = append(found, m)
			}
		case w == "Bearer" || w == "bearer":
			if m, ok := bearer(text, j); ok {
				found = append(found, m)
			}
		case len(w) == 35 && w[0] == 'A' && w[1] == 'A' && i > 0 && text[i-1] == ':':
			if m, ok := telegram(text, i, j); ok {
				found = append(found, m)
			}
		case len(w) >= 59 && len(w) <= 80 && (w[0] == 'M' || w[0] == 'N' || w[0] == 'O'):
			if discord(w) && (i == 0 || !alnum[text[i-1]]) {
				found = append(found, match{rule: "discord-bot-token", start: i, end: j})
			}
		}
		i = j
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

// assignsNext reports whether an assignment operator may follow a word
// that ends at j: after an optional closing quote and blanks, '=' or ':'
// or "?=". It is the cheap test before the word is read as a name.
func assignsNext(text string, j int) bool {
	for k := j; k < len(text) && k < j+8; k++ {
		switch text[k] {
		case '=', ':', '?':
			return true
		case '"', '\'', ' ', '\t':
		default:
			return false
		}
	}
	return false
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
