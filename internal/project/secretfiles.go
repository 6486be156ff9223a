package project

import (
	"path"
	"strings"
)

// SecretFileReason is why Walk leaves out a file that is a secret by its
// name, and how to take it in.
const SecretFileReason = "a secrets file by its name: left out by default; to pack it, list it under secrets.include in .ctxpack/config.yaml (its values are still redacted)"

// IsSecretFile reports whether the file at p (a slash path) holds secrets
// by nature, by its name: environment files (.env, .env.local; not
// .env.example, .env.sample, .env.template, .env.dist), private keys and
// key stores (id_rsa, *.pem, *.key, *.p12, *.pfx, *.jks, *.keystore,
// *.ppk), credential files (.netrc, .npmrc, .pypirc, .git-credentials,
// .pgpass, .htpasswd, .aws/credentials, .docker/config.json), password
// databases (*.kdbx) and Terraform state (*.tfstate).
func IsSecretFile(p string) bool {
	base := strings.ToLower(path.Base(p))
	switch base {
	case ".env", ".envrc", ".netrc", "_netrc", ".npmrc", ".pypirc", ".git-credentials", ".pgpass", ".htpasswd",
		".dockercfg", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk":
		return true
	case "credentials":
		return strings.HasSuffix(strings.ToLower(p), ".aws/credentials")
	case "config.json":
		return strings.HasSuffix(strings.ToLower(p), ".docker/config.json")
	}
	if rest, ok := strings.CutPrefix(base, ".env."); ok {
		switch rest {
		case "example", "sample", "template", "dist", "defaults", "schema":
			return false
		}
		return !strings.HasSuffix(rest, ".example") && !strings.HasSuffix(rest, ".sample") && !strings.HasSuffix(rest, ".template")
	}
	for _, k := range []string{"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"} {
		if strings.HasPrefix(base, k) && !strings.HasSuffix(base, ".pub") {
			return true
		}
	}
	switch path.Ext(base) {
	case ".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".ppk", ".kdbx", ".tfstate", ".p8":
		return true
	}
	return strings.HasSuffix(base, ".tfstate.backup")
}
