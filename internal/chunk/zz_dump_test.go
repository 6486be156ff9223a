package chunk

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestZZDump(t *testing.T) {
	files := os.Getenv("DUMP")
	if files == "" {
		t.Skip()
	}
	for _, f := range strings.Fields(files) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("===== %s (%s, %s)\n", f, Language(f), Backend)
		for _, c := range Split(f, src) {
			fmt.Printf("%3d %5d-%-5d L%d-%d %-9s %q\n", c.Seq, c.Start, c.End, c.StartLine, c.EndLine, c.Kind, c.Symbol)
		}
		if os.Getenv("LEVELS") != "" {
			s, d := Levels(f, src)
			fmt.Printf("--- summary\n%s--- detailed\n%s---\n", s, d)
		}
	}
}
