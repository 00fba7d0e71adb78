package format

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDocExamples checks every before/after pair in docs/fmt.md: the
// page's ```wf blocks, taken two by two, are an input and its formatting.
func TestDocExamples(t *testing.T) {
	b, err := os.ReadFile("../docs/fmt.md")
	if err != nil {
		t.Fatal(err)
	}
	var blocks []string
	rest := string(b)
	for {
		i := strings.Index(rest, "```wf\n")
		if i < 0 {
			break
		}
		rest = rest[i+len("```wf\n"):]
		j := strings.Index(rest, "```\n")
		if j < 0 {
			t.Fatal("unclosed ```wf block")
		}
		blocks = append(blocks, rest[:j])
		rest = rest[j:]
	}
	if len(blocks) < 2 || len(blocks)%2 != 0 {
		t.Fatalf("docs/fmt.md has %d ```wf blocks; want before/after pairs", len(blocks))
	}
	for k := 0; k < len(blocks); k += 2 {
		before, after := blocks[k], blocks[k+1]
		if got := tidy(t, before); got != after {
			t.Errorf("example %d (-docs +wfc fmt):\n%s", k/2+1, cmp.Diff(after, got))
		}
		checkProperties(t, "docs example", before)
	}
}
