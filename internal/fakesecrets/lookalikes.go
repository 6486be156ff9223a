package fakesecrets

import (
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strings"
)

// lookAlikeKinds are the kinds of values that look like secrets and are
// not, each with the function that makes one. arg is the text after the
// kind in the placeholder ({{look:env-read:os.Getenv("X")}}): the literal
// value for kinds that are written as they stand, a name for the others.
// The value returned is the text put in the file, all of which must
// survive.
var lookAlikeKinds = []struct {
	kind string
	gen  func(g *gen, arg string) string
}{
	{"sha256-hex", func(g *gen, _ string) string { s := sha256.Sum256(g.bytes(64)); return hexOf(s[:]) }},
	{"git-commit-id", func(g *gen, _ string) string { s := sha1.Sum(g.bytes(64)); return hexOf(s[:]) }},
	{"uuid", func(g *gen, _ string) string {
		b := g.bytes(16)
		b[6] = b[6]&0x0f | 0x40
		b[8] = b[8]&0x3f | 0x80
		h := hexOf(b)
		return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
	}},
	// Sample data: a JSON document in base64, as a test fixture holds it.
	{"base64-sample", func(g *gen, _ string) string {
		doc := fmt.Sprintf(`{"invoice":"INV-2024-%s","customer":"cus_%s","amount_cents":%s,"currency":"EUR","lines":3}`, g.number(5), g.number(6), g.number(6))
		return base64.StdEncoding.EncodeToString([]byte(doc))
	}},
	{"env-placeholder", func(_ *gen, name string) string { return "${" + name + "}" }},
	{"angle-placeholder", func(_ *gen, name string) string { return "<your-" + name + ">" }},
	{"changeme-placeholder", literal},
	{"masked-key", func(_ *gen, _ string) string { return "sk" + "_live_" + strings.Repeat("X", 24) }},
	// The examples of AWS's documentation, which every scanner should know.
	{"aws-docs-example-key-id", func(_ *gen, _ string) string { return "AK" + "IA" + "IOSFODNN7" + "EXAMPLE" }},
	{"aws-docs-example-secret", func(_ *gen, _ string) string { return "wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY" }},
	{"env-read", literal},
	{"npm-integrity", func(g *gen, _ string) string { return "sha512-" + base64.StdEncoding.EncodeToString(g.bytes(64)) }},
	{"go-sum-hash", func(g *gen, _ string) string { return "h1:" + base64.StdEncoding.EncodeToString(g.bytes(32)) }},
	// The base64 of an Ed25519 public key as authorized_keys holds it.
	{"ssh-public-key", func(g *gen, _ string) string {
		blob := append([]byte("\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20"), g.bytes(32)...)
		return base64.StdEncoding.EncodeToString(blob)
	}},
	// One line of a certificate's or a public key's PEM body, the one
	// after the first: the placeholder puts the whole block in the file.
	{"certificate", func(g *gen, _ string) string {
		der := append([]byte{0x30, 0x82, 0x03, 0x5d, 0x30, 0x82, 0x02, 0x45, 0xa0, 0x03, 0x02, 0x01, 0x02, 0x02, 0x14}, g.bytes(846)...)
		return "-----BEGIN CERTIFICATE-----\n" + strings.Join(wrap(base64.StdEncoding.EncodeToString(der), 64), "\n") + "\n-----END CERTIFICATE-----"
	}},
	{"public-key-block", func(g *gen, _ string) string {
		der := append([]byte{0x30, 0x82, 0x01, 0x22, 0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00, 0x03, 0x82, 0x01, 0x0f, 0x00,
			0x30, 0x82, 0x01, 0x0a, 0x02, 0x82, 0x01, 0x01, 0x00}, g.bytes(261)...)
		der = append(der, 0x02, 0x03, 0x01, 0x00, 0x01)
		return "-----BEGIN PUBLIC KEY-----\n" + strings.Join(wrap(base64.StdEncoding.EncodeToString(der), 64), "\n") + "\n-----END PUBLIC KEY-----"
	}},
	{"db-url-no-password", literal},
	{"db-url-placeholder", literal},
	{"long-identifier", literal},
	// The expected HMAC-SHA256 of a test, in hex.
	{"hex-test-vector", func(g *gen, _ string) string {
		m := hmac.New(sha256.New, []byte("test-key-"+g.number(4)))
		m.Write([]byte("v1:1700000000:{\"id\":\"evt_" + g.number(8) + "\"}"))
		return hexOf(m.Sum(nil))
	}},
	{"data-uri", func(g *gen, _ string) string {
		png := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x06\x00\x00\x00"), g.bytes(70)...)
		return "data:image/png;base64," + base64.StdEncoding.EncodeToString(png)
	}},
	{"password-field-name", literal},
}

func literal(_ *gen, s string) string { return s }

// pemLine is the value of a look-alike PEM block: its second body line.
func pemLine(block string) string { return strings.Split(block, "\n")[2] }
