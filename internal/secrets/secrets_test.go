package secrets

import (
	"encoding/base64"
	"math/rand/v2"
	"strings"
	"testing"
)

// No value below that looks like a secret is written in this file: each
// is generated from a fixed seed, its prefix put together from pieces, so
// that no secret scanner trips on the repository.

const (
	upper   = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	lower   = "abcdefghijklmnopqrstuvwxyz"
	digits  = "0123456789"
	alnums  = upper + lower + digits
	hexLow  = "0123456789abcdef"
	b64URLs = alnums + "-_"
)

var rng = rand.New(rand.NewPCG(15, 2026))

// gen is n bytes drawn from alphabet.
func gen(alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return string(b)
}

func enc64url(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

// pem is a private key block of the given type with a generated body.
func pem(kind string) string {
	var b strings.Builder
	b.WriteString("-----" + "BEGIN " + kind + "PRIVATE" + " KEY-----\n")
	for range 5 {
		b.WriteString(gen(alnums+"+/", 64) + "\n")
	}
	b.WriteString("-----" + "END " + kind + "PRIVATE" + " KEY-----")
	return b.String()
}

// secretCases are texts holding one secret: the rule that must find it
// and the value that must not survive redaction.
func secretCases() []struct{ name, path, text, rule, value string } {
	type c = struct{ name, path, text, rule, value string }
	jwtV := "ey" + "J" + enc64url(`{"alg":"HS256","typ":"JWT"}`)[3:] + "." + enc64url(`{"sub":"`+gen(digits, 10)+`"}`) + "." + gen(b64URLs, 43)
	discordID := enc64url(gen("123456789", 18))
	var cases []c
	add := func(name, path, before, value, after, rule string) {
		cases = append(cases, c{name, path, before + value + after, rule, value})
	}
	add("aws key id", "main.go", `const k = "`, "AK"+"IA"+gen(upper+"234567", 16), `"`, "aws-access-key-id")
	add("github classic", "ci.yml", "token: ", "gh"+"p_"+gen(alnums, 36), "\n", "github-token")
	add("github oauth", "a.py", `t = '`, "gh"+"o_"+gen(alnums, 36), `'`, "github-token")
	add("github fine-grained", "a.txt", "use ", "github"+"_pat_"+gen(alnums, 22)+"_"+gen(alnums, 59), " now", "github-fine-grained-token")
	add("gitlab", "a.sh", `export GL="`, "gl"+"pat-"+gen(b64URLs, 20), `"`, "gitlab-token")
	add("npm", ".npmrc.txt", "//registry.npmjs.org/:_authToken=", "np"+"m_"+gen(alnums, 36), "\n", "npm-token")
	add("pypi", "a.cfg", "password = ", "py"+"pi-AgEIcHlwaS5vcmc"+gen(b64URLs, 60), "\n", "pypi-token")
	add("slack bot", "a.js", `const s = "`, "xo"+"xb-"+gen(digits, 12)+"-"+gen(digits, 13)+"-"+gen(alnums, 24), `";`, "slack-token")
	add("slack webhook", "a.md", "post to https://hooks.slack.com/services/", "T"+gen(upper+digits, 10)+"/B"+gen(upper+digits, 10)+"/"+gen(alnums, 24), " today", "slack-webhook")
	add("stripe live", "pay.rb", `Stripe.api_key = "`, "sk"+"_live_"+gen(alnums, 24), `"`, "stripe-key")
	add("stripe restricted", "pay.rb", `KEY = "`, "rk"+"_live_"+gen(alnums, 24), `"`, "stripe-key")
	add("google api", "maps.js", `key: "`, "AI"+"za"+gen(b64URLs, 35), `"`, "google-api-key")
	add("openai project", "ai.py", `client = OpenAI(api_key="`, "sk"+"-proj-"+gen(b64URLs, 48), `")`, "openai-api-key")
	add("openai legacy", "ai.py", `k = "`, "sk"+"-"+gen(alnums, 20)+"T3Blbk"+"FJ"+gen(alnums, 20), `"`, "openai-api-key")
	add("anthropic", "ai.ts", `const key = "`, "sk"+"-ant-api03-"+gen(b64URLs, 93)+"AA", `"`, "anthropic-api-key")
	add("sendgrid", "mail.go", `key := "`, "S"+"G."+gen(b64URLs, 22)+"."+gen(b64URLs, 43), `"`, "sendgrid-api-key")
	add("twilio", "sms.py", `sid = "`, "S"+"K"+gen(hexLow, 32), `"`, "twilio-api-key")
	add("mailgun", "m.py", `api = "`, "ke"+"y-"+gen(hexLow, 32), `"`, "mailgun-api-key")
	add("huggingface", "hf.py", `HF = "`, "h"+"f_"+gen(alnums, 34), `"`, "huggingface-token")
	add("databricks", "db.py", `host_token = "`, "da"+"pi"+gen(hexLow, 32), `"`, "databricks-token")
	add("digitalocean", "do.tf", `token = "`, "do"+"p_v1_"+gen(hexLow, 64), `"`, "digitalocean-token")
	add("shopify", "shop.rb", `t = "`, "shp"+"at_"+gen(hexLow, 32), `"`, "shopify-token")
	add("vault", "v.sh", "VAULT_TOKEN=", "hv"+"s."+gen(b64URLs, 90), "\n", "vault-token")
	add("age", "age.txt", "", "AGE-SECRET-"+"KEY-1"+gen(upper+digits, 58), "\n", "age-secret-key")
	add("jwt", "auth_test.txt", "Authorization: Bearer ", jwtV, "\n", "jwt")
	add("telegram", "bot.py", `TOKEN = "`, gen("123456789", 10)+":AA"+gen(b64URLs, 33), `"`, "telegram-bot-token")
	add("discord", "bot.js", `client.login("`, discordID+"."+gen(b64URLs, 6)+"."+gen(b64URLs, 38), `")`, "discord-bot-token")
	add("rsa key", "k.go", "var key = `", pem("RSA "), "`", "private-key")
	add("openssh key", "deploy.txt", "", pem("OPENSSH "), "\n", "private-key")
	add("pkcs8 key", "k.txt", "", pem(""), "\n", "private-key")
	add("pgp key", "k.asc.txt", "", "-----BEGIN PGP "+"PRIVATE"+" KEY BLOCK-----\n\n"+gen(alnums, 64)+"\n"+gen(alnums, 64)+"\n-----END PGP "+"PRIVATE"+" KEY BLOCK-----", "\n", "private-key")
	add("key in json", "sa.json", `{"private_key": "`, strings.ReplaceAll(pem(""), "\n", `\n`), `\n"}`, "private-key")
	add("postgres url", "settings.py", `DATABASE_URL = "postgres://app:`, gen(alnums, 16), `@db.internal:5432/app"`, "url-password")
	add("redis url", "a.yaml", "cache: redis://default:", gen(alnums, 20), "@cache:6379/0\n", "url-password")
	add("env password", "deploy.sh", "DB_PASSWORD=", gen(lower, 6)+gen(digits, 3)+gen(upper, 3), "\n", "password-assignment")
	add("yaml password", "app.yaml", "  password: ", gen(alnums, 10)+"!9", "\n", "password-assignment")
	add("python bytes", "app.py", "app.secret_key = b'", gen(alnums, 24), "'", "secret-assignment")
	add("json api key", "conf.json", `{"api_key": "`, gen(alnums, 32), `"}`, "secret-assignment")
	add("python secret key", "settings.py", `SECRET_KEY = "`, gen(alnums+"!@#%^&*", 50), `"`, "secret-assignment")
	add("aws secret", "creds.ini", "aws_secret_access_key = ", gen(alnums+"+/", 40), "\n", "secret-assignment")
	add("azure", "a.cfg", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=", gen(alnums+"+/", 86)+"==", ";EndpointSuffix=core.windows.net", "secret-assignment")
	add("basic auth", "req.http", "Authorization: Basic ", base64.StdEncoding.EncodeToString([]byte("deploy:"+gen(alnums, 14))), "\n", "basic-auth")
	add("bearer", "req.http", "Authorization: Bearer ", gen(alnums, 40), "\n", "bearer-token")
	add("docker auth", "config.json.txt", `{"auths": {"r.io": {"auth": "`, base64.StdEncoding.EncodeToString([]byte("u:"+gen(alnums, 20))), `"}}}`, "secret-assignment")
	return cases
}

func TestScanFindsSecrets(t *testing.T) {
	s := &Scanner{}
	for _, c := range secretCases() {
		t.Run(c.name, func(t *testing.T) {
			found := s.Scan(c.path, c.text)
			var rules []string
			for _, f := range found {
				rules = append(rules, f.Rule)
			}
			if len(found) != 1 || found[0].Rule != c.rule {
				t.Fatalf("found %v in %q; want one %s", rules, c.text, c.rule)
			}
			out := Redact(c.text, found)
			if strings.Contains(out, c.value) {
				t.Errorf("the value survives redaction: %q", out)
			}
			if !strings.Contains(out, Marker(c.rule)) {
				t.Errorf("no marker in %q", out)
			}
			if again := s.Scan(c.path, out); len(again) != 0 {
				t.Errorf("the redacted text still has findings: %v in %q", again, out)
			}
			if f := found[0]; f.Fingerprint != Fingerprint(f.Rule, c.text[f.Start:f.End]) || strings.Contains(f.Fingerprint, c.value) {
				t.Errorf("fingerprint %q", f.Fingerprint)
			}
		})
	}
}

// TestScanKeepsLookAlikes: values that look like secrets but are not.
func TestScanKeepsLookAlikes(t *testing.T) {
	s := &Scanner{}
	for _, c := range []struct{ name, path, text string }{
		{"sha256", "a.go", `const sum = "` + gen(hexLow, 64) + `"`},
		{"commit", "CHANGES.md", "fixed in " + gen(hexLow, 40)},
		{"uuid", "a.json", `{"id": "` + gen(hexLow, 8) + "-" + gen(hexLow, 4) + "-4" + gen(hexLow, 3) + "-a" + gen(hexLow, 3) + "-" + gen(hexLow, 12) + `"}`},
		{"base64 sample", "a_test.go", `data := "` + base64.StdEncoding.EncodeToString([]byte("hello, world of tests")) + `"`},
		{"placeholder", "app.yaml", "password: ${DB_PASSWORD}\napi_key: <your-api-key>\ntoken: changeme\n"},
		{"env read", "s.py", `password = os.environ["DB_PASSWORD"]` + "\n" + `token = os.getenv("TOKEN")`},
		{"go env read", "s.go", `password := os.Getenv("DB_PASSWORD")` + "\nsecret := cfg.Secret2\n"},
		{"aws example", "README.md", "key id AK" + "IAIOSFODNN7EX" + "AMPLE in docs"},
		{"integrity", "package-lock.json", `"integrity": "sha512-` + gen(alnums+"+/", 86) + `=="`},
		{"go.sum", "go.sum", "golang.org/x/text v0.3.0 h1:" + gen(alnums+"+/", 43) + "="},
		{"ssh public key", "authorized_keys", "ssh-rsa AAAAB3NzaC1yc2E" + gen(alnums+"+/", 200) + " user@host"},
		{"certificate", "ca.crt", "-----BEGIN CERTIFICATE-----\n" + gen(alnums, 64) + "\n-----END CERTIFICATE-----"},
		{"url template", "t.py", `url = f"http://{ENCODED_USER}:{ENCODED_PASSWORD}@host/"` + "\nmasked = 'http://user:[secure]@example.org'"},
		{"url without password", "a.yaml", "url: postgres://app@db:5432/app\nother: postgres://app:${DB_PASSWORD}@db/app"},
		{"identifier", "a.go", "token := tokenizerForModelNameWithVersion2(name)"},
		{"comparison", "a.py", `if password == "` + gen(alnums, 12) + `":`},
		{"pem without body", "doc.go", `// PEM blocks of type "RSA ` + `PRIVATE` + ` KEY" hold PKCS #1 keys.`},
		{"bare code value", "a.go", "cfg.Password = testPassword123\n"},
		{"test output", "out.txt", "--- PASS: TestFoo/case_12 (0.00s)"},
		{"name as value", "gen.go", `"encryptionKey": "encryptionKey1024",`},
		{"hex vector", "v_test.go", `SharedSecret: "` + gen(hexLow, 64) + `",`},
		{"data uri", "a.css", "background: url(data:image/png;base64," + gen(alnums+"+/", 120) + ")"},
		{"long import path", "a.go", `import "github.com/example/some-very-long-module-name/internal/pkg/v2"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if found := s.Scan(c.path, c.text); len(found) != 0 {
				t.Errorf("found %+v in %q; want none", found, c.text)
			}
		})
	}
}

func TestAllowList(t *testing.T) {
	text := `k = "` + "AK" + "IA" + gen(upper, 16) + `"`
	s, globs, err := New([]string{"testdata/**"})
	if err != nil || len(globs) != 1 {
		t.Fatalf("New: %v, %v", globs, err)
	}
	f := s.Scan("a.go", text)
	if len(f) != 1 {
		t.Fatalf("found %v", f)
	}
	s2, _, err := New([]string{f[0].Fingerprint})
	if err != nil {
		t.Fatal(err)
	}
	if got := s2.Scan("a.go", text); len(got) != 0 {
		t.Errorf("an allowed fingerprint is still found: %v", got)
	}
	s.AllowPath = func(p string) bool { return strings.HasPrefix(p, "testdata/") }
	if got := s.Scan("testdata/x.go", text); len(got) != 0 {
		t.Errorf("an allowed path is still scanned: %v", got)
	}
	var none *Scanner
	if got := none.Scan("a.go", text); got != nil {
		t.Errorf("a nil scanner found %v", got)
	}
	for _, bad := range []string{"fp:12", "fp:XYZ0123456789abc", ""} {
		if _, _, err := New([]string{bad}); err == nil {
			t.Errorf("New(%q) is not an error", bad)
		}
	}
}

func TestFindingLinesAndOrder(t *testing.T) {
	a := "gh" + "p_" + gen(alnums, 36)
	b := "AK" + "IA" + gen(upper, 16)
	text := "one\n" + a + "\nthree\nfour " + b + "\n"
	f := (&Scanner{}).Scan("x.txt", text)
	if len(f) != 2 || f[0].Line != 2 || f[1].Line != 4 || f[0].Start > f[1].Start {
		t.Fatalf("findings %+v", f)
	}
	out := Redact(text, f)
	if want := "one\n" + Marker("github-token") + "\nthree\nfour " + Marker("aws-access-key-id") + "\n"; out != want {
		t.Errorf("Redact = %q, want %q", out, want)
	}
	if got := InText(f, out[:len(out)/2]); len(got) != 1 || got[0].Rule != "github-token" {
		t.Errorf("InText of the first half = %+v", got)
	}
}

// FuzzScan: any text scans without panicking, findings are in order and
// in bounds, and the redacted text has no findings left.
func FuzzScan(f *testing.F) {
	for _, c := range secretCases() {
		f.Add(c.path, c.text)
	}
	f.Add("a.go", "password = \"\"")
	f.Add("a", "-----BEGIN PRIVATE KEY-----")
	f.Add("b", "http://:@")
	s := &Scanner{}
	f.Fuzz(func(t *testing.T, path, text string) {
		found := s.Scan(path, text)
		end := 0
		for _, x := range found {
			if x.Start < end || x.End <= x.Start || x.End > len(text) || x.Line < 1 {
				t.Fatalf("bad finding %+v (text %d bytes, previous end %d)", x, len(text), end)
			}
			end = x.End
		}
		out := Redact(text, found)
		for _, x := range found {
			if v := text[x.Start:x.End]; len(v) >= 8 && strings.Contains(out, v) && !strings.Contains(Marker(x.Rule), v) {
				// A value may occur again elsewhere only where it was
				// not found: then it is not a secret by the rules there.
				if again := s.Scan(path, out); len(again) != 0 {
					t.Fatalf("redacted text has findings %+v", again)
				}
			}
		}
	})
}
