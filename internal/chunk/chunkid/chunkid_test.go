package chunkid

import (
	"strings"
	"testing"
)

func TestName(t *testing.T) {
	if n := Name(); !strings.HasPrefix(n, Backend+" v") || strings.ContainsAny(n, "\n\r") {
		t.Errorf("Name() = %q", n)
	}
}
