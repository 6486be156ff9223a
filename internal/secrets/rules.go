package secrets

import (
	"encoding/base64"
	"math"
	"strings"
)

// Character sets of the patterns.
var (
	wordByte  = set("A-Za-z0-9_+/.-")
	alnum     = set("A-Za-z0-9")
	upperNum  = set("A-Z0-9")
	lowerHex  = set("0-9a-f")
	anyHex    = set("0-9a-fA-F")
	b64url    = set("A-Za-z0-9_-")
	b64       = set("A-Za-z0-9+/")
	alnumDash = set("A-Za-z0-9-")
	alnumUnd  = set("A-Za-z0-9_")
	digit     = set("0-9")
)

// set returns the bytes of a class written as ranges ("a-z") and single
// bytes; a '-' last is itself.
func set(spec string) *[256]bool {
	var s [256]bool
	for i := 0; i < len(spec); i++ {
		if i+2 < len(spec) && spec[i+1] == '-' {
			for c := spec[i]; c <= spec[i+2]; c++ {
				s[c] = true
			}
			i += 2
			continue
		}
		s[spec[i]] = true
	}
	return &s
}

// run is the length of the run of bytes of set at the start of s.
func run(s string, set *[256]bool) int {
	i := 0
	for i < len(s) && set[s[i]] {
		i++
	}
	return i
}

// prefixRule is a secret that starts with a fixed prefix followed by a
// run of one character set whose length lies in [min, max]; the run must
// end there (max is a limit on the run, not a cut). check, when set,
// validates the whole value further.
type prefixRule struct {
	rule     string
	prefixes []string
	set      *[256]bool
	min, max int
	check    func(v string) bool
}

// prefixRules are the rules that start with a fixed prefix, by the
// prefix's first byte (the word scan dispatches on it). The table is
// documented in docs/security.md.
var prefixRules = map[byte][]prefixRule{}

func init() {
	for _, r := range []prefixRule{
		{rule: "aws-access-key-id", prefixes: []string{"AKIA", "ASIA", "ABIA", "ACCA", "AROA", "AIDA"}, set: upperNum, min: 16, max: 16, check: notExample},
		{rule: "github-token", prefixes: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, set: alnum, min: 36, max: 36},
		{rule: "github-fine-grained-token", prefixes: []string{"github_pat_"}, set: alnumUnd, min: 70, max: 100},
		{rule: "gitlab-token", prefixes: []string{"glpat-", "glptt-", "gldt-", "glrt-", "glsoat-", "glcbt-", "glimt-", "glagent-", "glft-", "gloas-"}, set: b64url, min: 20, max: 100},
		{rule: "npm-token", prefixes: []string{"npm_"}, set: alnum, min: 36, max: 36},
		{rule: "pypi-token", prefixes: []string{"pypi-AgEIcHlwaS5vcmc", "pypi-AgENdGVzdC5weXBpLm9yZw"}, set: b64url, min: 50, max: 300},
		{rule: "slack-token", prefixes: []string{"xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xoxe-", "xoxe.xoxp-", "xapp-"}, set: alnumDash, min: 20, max: 300, check: hasDigit},
		{rule: "stripe-key", prefixes: []string{"sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"}, set: alnum, min: 20, max: 250},
		{rule: "google-api-key", prefixes: []string{"AIza"}, set: b64url, min: 35, max: 35},
		{rule: "google-oauth-secret", prefixes: []string{"GOCSPX-"}, set: b64url, min: 28, max: 28},
		{rule: "anthropic-api-key", prefixes: []string{"sk-ant-api03-", "sk-ant-admin01-", "sk-ant-"}, set: b64url, min: 32, max: 200},
		{rule: "openai-api-key", prefixes: []string{"sk-proj-", "sk-svcacct-", "sk-admin-", "sk-None-"}, set: b64url, min: 40, max: 250},
		{rule: "openai-api-key", prefixes: []string{"sk-"}, set: alnum, min: 48, max: 48, check: openAILegacy},
		{rule: "sendgrid-api-key", prefixes: []string{"SG."}, set: wordByte, min: 66, max: 66, check: sendGrid},
		{rule: "twilio-api-key", prefixes: []string{"SK"}, set: lowerHex, min: 32, max: 32},
		{rule: "mailgun-api-key", prefixes: []string{"key-"}, set: lowerHex, min: 32, max: 32},
		{rule: "huggingface-token", prefixes: []string{"hf_", "api_org_"}, set: alnum, min: 34, max: 34},
		{rule: "databricks-token", prefixes: []string{"dapi"}, set: lowerHex, min: 32, max: 32},
		{rule: "digitalocean-token", prefixes: []string{"dop_v1_", "doo_v1_", "dor_v1_"}, set: lowerHex, min: 64, max: 64},
		{rule: "shopify-token", prefixes: []string{"shpat_", "shpca_", "shppa_", "shpss_"}, set: anyHex, min: 32, max: 32},
		{rule: "vault-token", prefixes: []string{"hvs.", "hvb.", "hvr."}, set: b64url, min: 24, max: 400},
		{rule: "age-secret-key", prefixes: []string{"AGE-SECRET-KEY-1"}, set: upperNum, min: 58, max: 58},
		{rule: "doppler-token", prefixes: []string{"dp.pt.", "dp.st.", "dp.sa.", "dp.ct.", "dp.scim.", "dp.audit."}, set: alnum, min: 40, max: 44},
		{rule: "linear-api-key", prefixes: []string{"lin_api_"}, set: alnum, min: 40, max: 40},
		{rule: "postman-api-key", prefixes: []string{"PMAK-"}, set: wordByte, min: 59, max: 59, check: hasDash},
		{rule: "grafana-token", prefixes: []string{"glsa_", "glc_eyJ"}, set: wordByte, min: 32, max: 400},
		{rule: "newrelic-key", prefixes: []string{"NRAK-", "NRII-", "NRJS-"}, set: upperNum, min: 27, max: 27},
		{rule: "atlassian-token", prefixes: []string{"ATATT3"}, set: wordByte, min: 180, max: 200},
		{rule: "square-token", prefixes: []string{"sq0atp-", "sq0csp-", "EAAA"}, set: b64url, min: 22, max: 60},
		{rule: "heroku-api-key", prefixes: []string{"HRKU-"}, set: b64url, min: 60, max: 60},
		{rule: "pulumi-token", prefixes: []string{"pul-"}, set: lowerHex, min: 40, max: 40},
		{rule: "sentry-token", prefixes: []string{"sntrys_", "sntryu_"}, set: wordByte, min: 64, max: 300},
		{rule: "figma-token", prefixes: []string{"figd_"}, set: b64url, min: 40, max: 40},
		{rule: "dockerhub-token", prefixes: []string{"dckr_pat_"}, set: b64url, min: 27, max: 27},
		{rule: "flyio-token", prefixes: []string{"fo1_"}, set: b64url, min: 43, max: 43},
		{rule: "jwt", prefixes: []string{"eyJ"}, set: wordByte, min: 20, max: 8192, check: jwt},
	} {
		for _, p := range r.prefixes {
			r := r
			r.prefixes = []string{p}
			prefixRules[p[0]] = append(prefixRules[p[0]], r)
		}
	}
	// Longer prefixes first, so sk-ant- is tried before sk-.
	for c, rs := range prefixRules {
		for i := 1; i < len(rs); i++ {
			for j := i; j > 0 && len(rs[j].prefixes[0]) > len(rs[j-1].prefixes[0]); j-- {
				rs[j], rs[j-1] = rs[j-1], rs[j]
			}
		}
		prefixRules[c] = rs
	}
}

// matchPrefix returns the rule and length of the secret w (a word)
// starts with, if any.
func matchPrefix(w string) (string, int) {
	for _, r := range prefixRules[w[0]] {
		p := r.prefixes[0]
		if !strings.HasPrefix(w, p) {
			continue
		}
		n := run(w[len(p):], r.set)
		if n < r.min {
			continue
		}
		if n > r.max {
			continue
		}
		v := w[:len(p)+n]
		if r.check != nil && !r.check(v) {
			continue
		}
		if entropy(v[len(p):]) < 2.5 {
			continue // masked or made up: sk_live_XXXXXXXX…, AKIA0000…
		}
		return r.rule, len(v)
	}
	return "", 0
}

func notExample(v string) bool { return !strings.HasSuffix(v, "EXAMPLE") }

func hasDigit(v string) bool { return strings.ContainsAny(v, "0123456789") }

func hasDash(v string) bool { return strings.Contains(v[5:], "-") }

// openAILegacy is sk- and 48 letters and digits with T3BlbkFJ ("OpenAI"
// in base64) in the middle.
func openAILegacy(v string) bool { return strings.Contains(v, "T3BlbkFJ") }

// sendGrid is SG. then 22 and 43 base64url characters, dot-separated.
func sendGrid(v string) bool {
	rest := v[3:]
	return len(rest) == 66 && run(rest[:22], b64url) == 22 && rest[22] == '.' && run(rest[23:], b64url) == 43
}

// jwt is three base64url segments, the first a JSON header naming an
// algorithm or a type.
func jwt(v string) bool {
	parts := strings.Split(v, ".")
	if len(parts) != 3 || len(parts[1]) < 4 || len(parts[2]) < 16 {
		return false
	}
	for _, p := range parts {
		if run(p, b64url) != len(p) {
			return false
		}
	}
	h, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[0], "="))
	if err != nil {
		return false
	}
	hs := string(h)
	return strings.HasPrefix(hs, "{") && (strings.Contains(hs, `"alg"`) || strings.Contains(hs, `"typ"`))
}

// entropy is the Shannon entropy of s in bits per byte.
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	var n [256]int
	for i := 0; i < len(s); i++ {
		n[s[i]]++
	}
	e := 0.0
	l := float64(len(s))
	for _, c := range n {
		if c > 0 {
			p := float64(c) / l
			e -= p * math.Log2(p)
		}
	}
	return e
}

// classes counts the character classes in s: lower, upper, digit, other.
func classes(s string) int {
	var lo, up, di, ot bool
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z':
			lo = true
		case c >= 'A' && c <= 'Z':
			up = true
		case c >= '0' && c <= '9':
			di = true
		default:
			ot = true
		}
	}
	n := 0
	for _, b := range []bool{lo, up, di, ot} {
		if b {
			n++
		}
	}
	return n
}
