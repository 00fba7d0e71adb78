package lexer

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestComments checks that every comment's range is recorded, in order:
// line comments up to the end of their line, block comments through `*/`,
// an unterminated block comment to the end of the source.
func TestComments(t *testing.T) {
	src := "// a\r\nenum E { A /* b\n c */, B } // wfc:ignore WF101 d\n/* e"
	res := Lex("c.wf", src)
	var got []string
	for _, c := range res.Comments {
		got = append(got, src[c.Off:c.End])
	}
	want := []string{"// a", "/* b\n c */", "// wfc:ignore WF101 d", "/* e"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("comments (-want +got):\n%s", diff)
	}
}
