package http

import (
	"errors"
	"net/http"
	"strings"

	"github.com/golang-jwt/jwt/v5"
)

var errNoToken = errors.New("missing bearer token")

// bearerToken extracts the token from an "Authorization: Bearer …" header.
func bearerToken(r *http.Request) (string, error) {
	h := r.Header.Get("Authorization")
	tok, ok := strings.CutPrefix(h, "Bearer ")
	if !ok || tok == "" {
		return "", errNoToken
	}
	return tok, nil
}

// ValidateJWT checks the signature and expiry of a JSON Web Token.
func ValidateJWT(raw string, key []byte) (*jwt.RegisteredClaims, error) {
	claims := &jwt.RegisteredClaims{}
	_, err := jwt.ParseWithClaims(raw, claims, func(*jwt.Token) (any, error) { return key, nil })
	return claims, err
}
