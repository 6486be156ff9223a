package fakesecrets

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"strings"
)

// Alphabets of the formats.
const (
	upper     = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	lower     = "abcdefghijklmnopqrstuvwxyz"
	digits    = "0123456789"
	hexDigits = "0123456789abcdef"
	base62    = digits + upper + lower
	base64url = upper + lower + digits + "-_"
	base64std = upper + lower + digits + "+/"
	base32    = upper + "234567"
)

// A value is what a placeholder becomes: the text put in the file and,
// for a secret, the parts of it that must never appear in an output (a
// password, not the URL around it; each line of a key's body).
type value struct {
	text   string
	values []string // nil: the text itself
}

// secretKinds are the kinds of secrets, each with the function that draws
// one. The prefixes are put together from pieces so that no scanner
// reading this file takes a format string for a secret.
var secretKinds = []struct {
	kind string
	gen  func(g *gen) value
}{
	{"aws-access-key-id", func(g *gen) value { return g.plain("AK" + "IA" + g.str(base32, 16)) }},
	{"aws-secret-access-key", func(g *gen) value { return g.plain(g.str(base64std, 40)) }},
	{"github-pat-classic", func(g *gen) value { return g.plain(g.github("gh" + "p_")) }},
	{"github-fine-grained-pat", func(g *gen) value {
		return g.plain("github" + "_pat_" + "11" + g.str(upper+digits, 20) + "_" + g.str(base62, 59))
	}},
	{"github-oauth-token", func(g *gen) value { return g.plain(g.github("gh" + "o_")) }},
	{"github-app-token", func(g *gen) value { return g.plain(g.github("gh" + "s_")) }},
	{"github-user-token", func(g *gen) value { return g.plain(g.github("gh" + "u_")) }},
	{"github-refresh-token", func(g *gen) value { return g.plain("gh" + "r_" + g.str(base62, 76)) }},
	{"gitlab-pat", func(g *gen) value { return g.plain("gl" + "pat-" + g.str(base62+"-_", 20)) }},
	{"npm-token", func(g *gen) value { return g.plain(g.github("np" + "m_")) }},
	// A PyPI token is a macaroon: its base64 starts with the encoded
	// location, pypi.org.
	{"pypi-token", func(g *gen) value {
		return g.plain("py" + "pi-" + base64.RawURLEncoding.EncodeToString([]byte("\x02\x01\x08pypi.org")) + g.str(base64url, 160))
	}},
	{"slack-bot-token", func(g *gen) value {
		return g.plain("xo" + "xb-" + g.number(11) + "-" + g.number(13) + "-" + g.str(base62, 24))
	}},
	{"slack-user-token", func(g *gen) value {
		return g.plain("xo" + "xp-" + g.number(11) + "-" + g.number(11) + "-" + g.number(13) + "-" + g.str(hexDigits, 32))
	}},
	{"slack-webhook-url", func(g *gen) value {
		tok := g.str(base62, 24)
		return value{"https://hooks.slack" + ".com/services/T" + g.str(upper+digits, 8) + "/B" + g.str(upper+digits, 10) + "/" + tok, []string{tok}}
	}},
	{"stripe-live-secret-key", func(g *gen) value { return g.plain("sk" + "_live_" + "51" + g.str(base62, 97)) }},
	{"stripe-restricted-key", func(g *gen) value { return g.plain("rk" + "_live_" + "51" + g.str(base62, 97)) }},
	{"stripe-webhook-secret", func(g *gen) value { return g.plain("wh" + "sec_" + g.str(base62, 32)) }},
	{"google-api-key", func(g *gen) value { return g.plain("AI" + "za" + "Sy" + g.str(base62+"-_", 33)) }},
	{"gcp-service-account", (*gen).serviceAccount},
	{"openai-project-key", func(g *gen) value {
		return g.plain("sk" + "-proj-" + g.str(base62+"-_", 74) + "T3Blbk" + "FJ" + g.str(base62+"-_", 74))
	}},
	{"openai-legacy-key", func(g *gen) value {
		return g.plain("sk" + "-" + g.str(base62, 20) + "T3Blbk" + "FJ" + g.str(base62, 20))
	}},
	{"anthropic-api-key", func(g *gen) value { return g.plain("sk" + "-ant-" + "api03-" + g.str(base64url, 93) + "AA") }},
	{"sendgrid-api-key", func(g *gen) value { return g.plain("S" + "G." + g.str(base64url, 22) + "." + g.str(base64url, 43)) }},
	{"twilio-api-key", func(g *gen) value { return g.plain("S" + "K" + g.str(hexDigits, 32)) }},
	{"twilio-auth-token", func(g *gen) value { return g.plain(g.str(hexDigits, 32)) }},
	{"mailgun-api-key", func(g *gen) value { return g.plain("ke" + "y-" + g.str(hexDigits, 32)) }},
	{"huggingface-token", func(g *gen) value { return g.plain("h" + "f_" + g.str(upper+lower, 34)) }},
	{"databricks-token", func(g *gen) value { return g.plain("da" + "pi" + g.str(hexDigits, 32)) }},
	{"digitalocean-token", func(g *gen) value { return g.plain("do" + "p_v1_" + g.str(hexDigits, 64)) }},
	{"shopify-access-token", func(g *gen) value { return g.plain("sh" + "pat_" + g.str(hexDigits, 32)) }},
	{"telegram-bot-token", func(g *gen) value { return g.plain(g.number(10) + ":" + "AA" + g.str(base62+"-_", 33)) }},
	// A Discord bot token: the bot's id in base64, a time stamp, an HMAC.
	{"discord-bot-token", func(g *gen) value {
		id := base64.RawStdEncoding.EncodeToString([]byte("1" + g.number(17)))
		return g.plain(id + "." + g.str(base64url, 6) + "." + g.str(base64url, 38))
	}},
	{"vault-token", func(g *gen) value { return g.plain("hv" + "s." + "CAESI" + g.str(base64url, 90)) }},
	{"azure-storage-key", func(g *gen) value {
		key := base64.StdEncoding.EncodeToString(g.bytes(64))
		return value{"DefaultEndpointsProtocol=https;AccountName=acmeledger;Account" + "Key=" + key + ";EndpointSuffix=core.windows.net", []string{key}}
	}},
	{"jwt", (*gen).jwt},
	{"rsa-private-key", func(g *gen) value {
		// PKCS#1 RSAPrivateKey of a 2048-bit key: SEQUENCE, version 0, the modulus...
		return g.pem("RSA "+privateKey, 64, append([]byte{0x30, 0x82, 0x04, 0xa4, 0x02, 0x01, 0x00, 0x02, 0x82, 0x01, 0x01, 0x00}, g.bytes(1180)...))
	}},
	{"pkcs8-private-key", func(g *gen) value { return g.pem(privateKey, 64, g.pkcs8()) }},
	{"ec-private-key", func(g *gen) value {
		// SEC 1 ECPrivateKey on P-256: version 1, the scalar, the curve's
		// OID, the public point.
		der := []byte{0x30, 0x77, 0x02, 0x01, 0x01, 0x04, 0x20}
		der = append(der, g.bytes(32)...)
		der = append(der, 0xa0, 0x0a, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0xa1, 0x44, 0x03, 0x42, 0x00, 0x04)
		der = append(der, g.bytes(64)...)
		return g.pem("EC "+privateKey, 64, der)
	}},
	{"openssh-private-key", (*gen).openssh},
	{"pgp-private-key", (*gen).pgp},
	{"postgres-url", func(g *gen) value {
		pw := g.str(base62, 24)
		return value{"postgres://billing:" + pw + "@db.internal.acme.io:5432/billing?sslmode=require", []string{pw}}
	}},
	{"mysql-url", func(g *gen) value {
		pw := g.str(base62, 20)
		return value{"mysql://reports:" + pw + "@mysql.internal.acme.io:3306/reports", []string{pw}}
	}},
	{"mongodb-srv-url", func(g *gen) value {
		pw := g.str(base62, 22)
		return value{"mongodb+srv://ledger:" + pw + "@cluster0.x4kq2.mongodb.net/ledger?retryWrites=true", []string{pw}}
	}},
	{"redis-url", func(g *gen) value {
		pw := g.str(base62, 32)
		return value{"rediss://default:" + pw + "@cache.internal.acme.io:6380/0", []string{pw}}
	}},
	{"generic-password", func(g *gen) value { return g.plain(g.str(base62+"!#%*-_.~", 28)) }},
	{"generic-api-key", func(g *gen) value { return g.plain(g.str(base62, 40)) }},
	{"generic-secret", func(g *gen) value { return g.plain(g.str(hexDigits, 64)) }},
	{"django-secret-key", func(g *gen) value {
		return g.plain("django-insecure-" + g.str(lower+digits+"!@#$%^*(-_=+)", 50))
	}},
	// The base64 of user:password after "Authorization: Basic ".
	{"http-basic-auth", func(g *gen) value {
		return g.plain(base64.StdEncoding.EncodeToString([]byte("deploy-bot:" + g.str(base62, 24))))
	}},
	{"bearer-token", func(g *gen) value { return g.plain(g.str(base62, 48)) }},
	// The "auth" of a registry in ~/.docker/config.json.
	{"docker-config-auth", func(g *gen) value {
		return g.plain(base64.StdEncoding.EncodeToString([]byte("ci-pusher:" + g.str(base62, 36))))
	}},
	{"age-secret-key", func(g *gen) value {
		return g.plain(strings.ToUpper(bech32("age-secret-key-", g.bytes(32))))
	}},
	{"grafana-service-account-token", func(g *gen) value {
		return g.plain("gl" + "sa_" + g.str(base62, 32) + "_" + g.str(hexDigits, 8))
	}},
	{"newrelic-user-api-key", func(g *gen) value { return g.plain("NR" + "AK-" + g.str(upper+digits, 27)) }},
}

// privateKey is the end of a private key's PEM label.
const privateKey = "PRIV" + "ATE KEY"

// gen draws values from a seeded source.
type gen struct{ r *rand.Rand }

func (g *gen) plain(s string) value { return value{text: s} }

// str draws n characters of alphabet.
func (g *gen) str(alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[g.r.IntN(len(alphabet))]
	}
	return string(b)
}

// number draws n decimal digits, the first not 0.
func (g *gen) number(n int) string { return g.str("123456789", 1) + g.str(digits, n-1) }

func (g *gen) bytes(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(g.r.UintN(256))
	}
	return b
}

// github draws a token in GitHub's format: the prefix, 30 base62
// characters and their CRC-32 in 6 base62 digits.
func (g *gen) github(prefix string) string {
	body := g.str(base62, 30)
	sum := crc32.ChecksumIEEE([]byte(body))
	var check [6]byte
	for i := 5; i >= 0; i-- {
		check[i] = base62[sum%62]
		sum /= 62
	}
	return prefix + body + string(check[:])
}

// pem wraps der in a PEM block labelled label, width characters a line;
// the values are the body's lines of 20 characters or more.
func (g *gen) pem(label string, width int, der []byte) value {
	lines := wrap(base64.StdEncoding.EncodeToString(der), width)
	return value{"-----BEGIN " + label + "-----\n" + strings.Join(lines, "\n") + "\n-----END " + label + "-----", long(lines)}
}

// pkcs8 draws a PKCS#8 PrivateKeyInfo of a 2048-bit RSA key.
func (g *gen) pkcs8() []byte {
	der := []byte{0x30, 0x82, 0x04, 0xbe, 0x02, 0x01, 0x00, 0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00,
		0x04, 0x82, 0x04, 0xa8, 0x30, 0x82, 0x04, 0xa4, 0x02, 0x01, 0x00, 0x02, 0x82, 0x01, 0x01, 0x00}
	return append(der, g.bytes(1180)...)
}

// serviceAccount draws a Google Cloud service account key file, whose
// private_key is a PKCS#8 PEM with its newlines escaped as JSON does.
func (g *gen) serviceAccount() value {
	key := g.pem(privateKey, 64, g.pkcs8())
	id := g.number(21)
	text := fmt.Sprintf(`{
  "type": "service_account",
  "project_id": "acme-ledger-prod",
  "private_key_id": %q,
  "private_key": "%s\n",
  "client_email": "ledger-api@acme-ledger-prod.iam.gserviceaccount.com",
  "client_id": %q,
  "auth_uri": "https://accounts.google.com/o/oauth2/auth",
  "token_uri": "https://oauth2.googleapis.com/token",
  "auth_provider_x509_cert_url": "https://www.googleapis.com/oauth2/v1/certs",
  "client_x509_cert_url": "https://www.googleapis.com/robot/v1/metadata/x509/ledger-api%%40acme-ledger-prod.iam.gserviceaccount.com",
  "universe_domain": "googleapis.com"
}`, g.str(hexDigits, 40), strings.ReplaceAll(key.text, "\n", `\n`), id)
	return value{text, key.values}
}

// jwt draws an HS256 JSON Web Token: base64url JSON header and claims,
// and a 32-byte signature. The claims and the signature are the secret.
func (g *gen) jwt() value {
	enc := base64.RawURLEncoding
	header := enc.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`))
	iat := 1700000000 + g.r.IntN(30_000_000)
	claims := fmt.Sprintf(`{"sub":"user_%s","org":"acme","role":"admin","iat":%d,"exp":%d}`, g.number(8), iat, iat+30*24*3600)
	tail := enc.EncodeToString([]byte(claims)) + "." + enc.EncodeToString(g.bytes(32))
	return value{header + "." + tail, []string{tail}}
}

// openssh draws an Ed25519 key in OpenSSH's own format
// (openssh-key-v1, unencrypted), 70 characters a line.
func (g *gen) openssh() value {
	priv := ed25519.NewKeyFromSeed(g.bytes(ed25519.SeedSize))
	pub := priv.Public().(ed25519.PublicKey)
	str := func(b []byte, s []byte) []byte { return append(binary.BigEndian.AppendUint32(b, uint32(len(s))), s...) }
	var pubBlob []byte
	pubBlob = str(pubBlob, []byte("ssh-ed25519"))
	pubBlob = str(pubBlob, pub)
	check := g.bytes(4)
	var sec []byte
	sec = append(sec, check...)
	sec = append(sec, check...)
	sec = str(sec, []byte("ssh-ed25519"))
	sec = str(sec, pub)
	sec = str(sec, priv)
	sec = str(sec, []byte("deploy@ledgerline"))
	for i := byte(1); len(sec)%8 != 0; i++ {
		sec = append(sec, i)
	}
	b := []byte("openssh-key-v1\x00")
	b = str(b, []byte("none"))
	b = str(b, []byte("none"))
	b = str(b, nil)
	b = binary.BigEndian.AppendUint32(b, 1)
	b = str(b, pubBlob)
	b = str(b, sec)
	v := g.pem("OPENSSH "+privateKey, 70, b)
	v.values = v.values[1:] // the first line is the format's header, the same in every key
	return v
}

// pgp draws an ASCII-armored OpenPGP secret key: a secret-key packet's
// header, random key material, and the armor's CRC-24 line.
func (g *gen) pgp() value {
	der := []byte{0x95, 0x03, 0x98, 0x04}
	der = binary.BigEndian.AppendUint32(der, uint32(1600000000+g.r.IntN(100_000_000)))
	der = append(der, 0x01, 0x08, 0x00) // RSA, a 2048-bit modulus
	der = append(der, g.bytes(910)...)
	lines := wrap(base64.StdEncoding.EncodeToString(der), 64)
	crc := crc24(der)
	sum := base64.StdEncoding.EncodeToString([]byte{byte(crc >> 16), byte(crc >> 8), byte(crc)})
	label := "PGP " + privateKey + " BLOCK"
	return value{"-----BEGIN " + label + "-----\n\n" + strings.Join(lines, "\n") + "\n=" + sum + "\n-----END " + label + "-----", long(lines)}
}

// crc24 is OpenPGP's armor checksum (RFC 4880, 6.1).
func crc24(b []byte) uint32 {
	crc := uint32(0xB704CE)
	for _, c := range b {
		crc ^= uint32(c) << 16
		for range 8 {
			crc <<= 1
			if crc&0x1000000 != 0 {
				crc ^= 0x1864CFB
			}
		}
	}
	return crc & 0xFFFFFF
}

// bech32 encodes data with the human-readable part hrp (BIP 173), as age
// writes its keys.
func bech32(hrp string, data []byte) string {
	const charset = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
	var values []byte // data regrouped from 8 bits to 5
	acc, bits := 0, 0
	for _, b := range data {
		acc = acc<<8 | int(b)
		bits += 8
		for bits >= 5 {
			bits -= 5
			values = append(values, byte(acc>>bits&31))
		}
	}
	if bits > 0 {
		values = append(values, byte(acc<<(5-bits)&31))
	}
	polymod := func(v []byte) uint32 {
		gens := [5]uint32{0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3}
		chk := uint32(1)
		for _, x := range v {
			top := chk >> 25
			chk = (chk&0x1ffffff)<<5 ^ uint32(x)
			for i := range 5 {
				if top>>i&1 == 1 {
					chk ^= gens[i]
				}
			}
		}
		return chk
	}
	var exp []byte
	for _, c := range hrp {
		exp = append(exp, byte(c>>5))
	}
	exp = append(exp, 0)
	for _, c := range hrp {
		exp = append(exp, byte(c&31))
	}
	mod := polymod(append(append(exp, values...), 0, 0, 0, 0, 0, 0)) ^ 1
	var sb strings.Builder
	sb.WriteString(hrp + "1")
	for _, v := range values {
		sb.WriteByte(charset[v])
	}
	for i := range 6 {
		sb.WriteByte(charset[mod>>(5*(5-i))&31])
	}
	return sb.String()
}

// wrap cuts s into lines of width characters.
func wrap(s string, width int) []string {
	var lines []string
	for len(s) > width {
		lines = append(lines, s[:width])
		s = s[width:]
	}
	return append(lines, s)
}

// long keeps the lines of 20 characters or more.
func long(lines []string) []string {
	var out []string
	for _, l := range lines {
		if len(l) >= 20 {
			out = append(out, l)
		}
	}
	return out
}

// hexOf is the lower-case hex of b.
func hexOf(b []byte) string { return hex.EncodeToString(b) }
