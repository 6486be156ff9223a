package secrets

import "strings"

// Credential names: a word that ends in one of these (in any case, after
// any prefix: DB_PASSWORD, self.api_key, --token) names a credential.
var (
	passwordNames = []string{"password", "passwd", "passphrase", "pwd"}
	secretNames   = []string{"secret", "token", "apikey", "api_key", "api-key", "credentials", "credential",
		"auth", "authorization", "accesskey", "access_key", "access-key", "privatekey", "private_key",
		"accountkey", "account_key", "secretkey", "secret_key", "signingkey", "signing_key", "encryptionkey",
		"encryption_key", "masterkey", "master_key", "clientkey", "client_key", "authkey", "auth_key",
		"appkey", "app_key", "sharedaccesskey", "webhook_secret", "connectionstring", "connection_string",
		"sas", "dsn"}
)

// credentialName reports whether w names a credential, and whether a
// password. It is called for every word an operator follows, so it
// rejects by the last byte first and compares suffixes without copying.
func credentialName(w string) (is, password bool) {
	if len(w) < 3 || len(w) > 64 {
		return false, false
	}
	switch w[len(w)-1] | 0x20 {
	case 'd', 'e', 's', 't', 'n', 'y', 'h', 'l', 'g':
	default:
		return false, false
	}
	w = strings.TrimLeft(w, "-")
	if hasSuffixFold(w, "pass") {
		// DB_PASS, db-pass: a name must come before the separator.
		return len(w) >= 6 && (w[len(w)-5] == '_' || w[len(w)-5] == '-') && alnum[w[len(w)-6]], true
	}
	for _, n := range passwordNames {
		if hasSuffixFold(w, n) {
			return true, true
		}
	}
	for _, n := range secretNames {
		if hasSuffixFold(w, n) {
			return true, false
		}
	}
	return false, false
}

// hasSuffixFold is strings.HasSuffix ignoring ASCII case; suffix is
// lower-case.
func hasSuffixFold(s, suffix string) bool {
	if len(s) < len(suffix) {
		return false
	}
	t := s[len(s)-len(suffix):]
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != suffix[i] {
			return false
		}
	}
	return true
}

// nameWord is the credential word a name ends in, lower-case
// ("password", "token", "key"…), which a value that is only a name
// repeats: "encryptionKey": "encryptionKey1024".
func nameWord(w string) string {
	lw := strings.ToLower(w)
	for _, n := range []string{"password", "passwd", "passphrase", "secret", "token", "key", "auth", "credential"} {
		if strings.Contains(lw, n) {
			return n
		}
	}
	return ""
}

// bareIsCode reports whether a bare value at path is an expression (a
// variable, a call) rather than a literal: in source code, yes; in
// configuration, shell, .env and text files, no.
func bareIsCode(path string) bool {
	dot := strings.LastIndexByte(path, '.')
	if dot < 0 || strings.LastIndexByte(path, '/') > dot {
		return false
	}
	switch strings.ToLower(path[dot+1:]) {
	case "go", "py", "pyi", "js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx", "java", "kt", "kts", "scala",
		"c", "h", "cc", "cpp", "cxx", "hpp", "hh", "rs", "rb", "php", "cs", "swift", "m", "mm", "dart", "lua",
		"ex", "exs", "clj", "groovy", "vue", "svelte", "zig", "nim", "erl", "hs", "ml", "fs", "jl", "r":
		return true
	}
	return false
}

// assignment finds a credential assigned to the word at [i, j): the word
// names one, an operator follows (=, :, :=, =>, ?=; not ==), then a
// quoted or bare value that looks like a credential.
func assignment(path, text string, i, j int) (match, bool) {
	is, password := credentialName(text[i:j])
	if !is {
		return match{}, false
	}
	k := j
	if k < len(text) && (text[k] == '"' || text[k] == '\'') {
		k++
	}
	k = skipBlank(text, k)
	if k >= len(text) {
		return match{}, false
	}
	switch text[k] {
	case '=':
		if k+1 < len(text) && text[k+1] == '=' {
			return match{}, false
		}
		k++
		if k < len(text) && text[k] == '>' {
			k++
		}
	case ':':
		if k+1 < len(text) && text[k+1] == ':' {
			return match{}, false
		}
		k++
		if k < len(text) && text[k] == '=' {
			k++
		}
	case '?':
		if k+1 < len(text) && text[k+1] == '=' {
			k += 2
		} else {
			return match{}, false
		}
	default:
		return match{}, false
	}
	k = skipBlank(text, k)
	if k >= len(text) {
		return match{}, false
	}
	var s, e int
	quoted := false
	if k+1 < len(text) && strings.IndexByte("bBrRuU", text[k]) >= 0 && (text[k+1] == '"' || text[k+1] == '\'') {
		k++ // a Python bytes, raw or unicode string: b'…'
	}
	switch q := text[k]; q {
	case '"', '\'', '`':
		quoted = true
		s = k + 1
		e = s
		for e < len(text) && text[e] != q && text[e] != '\n' && e-s <= 1024 {
			if text[e] == '\\' && q != '`' {
				e++
			}
			e++
		}
		if e >= len(text) || text[e] != q {
			return match{}, false
		}
	default:
		s = k
		e = s
		for e < len(text) {
			c := text[e]
			if c <= ' ' || c == ',' || c == ';' || c == '"' || c == '\'' || c == '`' || c == ')' || c == '}' || c == ']' || c == '#' && e > s && text[e-1] <= ' ' {
				break
			}
			e++
		}
	}
	v := text[s:e]
	if !quoted && bareIsCode(path) {
		return match{}, false
	}
	if !credentialValue(v, quoted, password) {
		return match{}, false
	}
	if len(v) >= 64 && run(v, anyHex) == len(v) && testPath(path) {
		return match{}, false // a test vector: a shared secret, a private scalar in hex
	}
	if n := nameWord(text[i:j]); n != "" && strings.Contains(strings.ToLower(v), n) {
		return match{}, false
	}
	rule := "secret-assignment"
	if password {
		rule = "password-assignment"
	}
	return match{rule: rule, start: s, end: e, generic: true}, true
}

func skipBlank(text string, k int) int {
	for k < len(text) && (text[k] == ' ' || text[k] == '\t') {
		k++
	}
	return k
}

// credentialValue reports whether v, assigned to a credential name, looks
// like a credential rather than a placeholder, a reference or an
// expression.
func credentialValue(v string, quoted, password bool) bool {
	min := 16
	if password {
		min = 6
	}
	if len(v) < min || len(v) > 1024 || placeholder(v) {
		return false
	}
	if strings.ContainsAny(v, " \t\\") {
		return false
	}
	if !quoted {
		// A bare value in code is an expression: a call, an index, a
		// field, a variable. Only a literal-looking one counts.
		if strings.ContainsAny(v, "()[]{}<>$%") {
			return false
		}
		if !strings.ContainsAny(v, "0123456789") {
			return false
		}
	}
	if strings.ContainsAny(v, "{}$%<>") && (strings.Contains(v, "${") || strings.Contains(v, "{{") || strings.Contains(v, "%s") || strings.Contains(v, "%(") || strings.HasPrefix(v, "<")) {
		return false
	}
	if password {
		// A letter and a digit or symbol: "hunter2", not "letmein" nor a
		// name such as "encodeUserPassword".
		c := classes(v)
		letters := strings.IndexFunc(v, func(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }) >= 0
		return letters && strings.IndexFunc(v, func(r rune) bool { return r < 'A' || r > 'z' || r > 'Z' && r < 'a' }) >= 0 && c >= 2
	}
	return classes(v) >= 2 && entropy(v) >= 3.3
}

// placeholders are values that stand for a credential rather than being
// one.
var placeholders = []string{"example", "placeholder", "changeme", "change_me", "change-me", "your_", "your-",
	"yourpassword", "yourtoken", "yourkey", "redacted", "dummy", "sample", "xxxx", "****", "....", "<", "${",
	"{{", "$(", "%(", "%s", "env(", "getenv", "environ", "secretref", "process.env", "os.getenv", "todo", "fixme",
	"insert", "replace", "fake", "not-a-", "notasecret", "not_a_"}

// placeholder reports whether v reads as a placeholder.
func placeholder(v string) bool {
	l := strings.ToLower(v)
	switch l {
	case "password", "passwd", "secret", "token", "pass", "test", "testing", "null", "none", "nil", "true", "false", "undefined", "admin", "root", "user", "guest":
		return true
	}
	for _, p := range placeholders {
		if strings.Contains(l, p) {
			return true
		}
	}
	// One repeated byte: "aaaaaaaa", "00000000".
	if strings.Count(v, v[:1]) == len(v) {
		return true
	}
	return false
}

// testPath reports whether path is a test's file or test data: where
// known-answer vectors in hex are keys and secrets by name only.
func testPath(path string) bool {
	p := "/" + strings.ToLower(path)
	return strings.Contains(p, "_test.") || strings.Contains(p, ".test.") || strings.Contains(p, ".spec.") ||
		strings.Contains(p, "/testdata/") || strings.Contains(p, "/test/") || strings.Contains(p, "/tests/") ||
		strings.Contains(p, "/fixtures/") || strings.Contains(p, "/test_")
}
