package lsp

import (
	"slices"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc/lsp/protocol"
)

// The language server reads names from the checker's model: each
// declaration is its own object, so two workflows with one name (WF101)
// are not mixed up, and a rename of one leaves the other alone.
func TestDuplicateNamesAreDistinct(t *testing.T) {
	src := `workflow W { Initial = A; event Go();
  state A { subscribe Go(); on Go { goto B; } }
  terminal B { } }
workflow W { Initial = A; event Go();
  state A { subscribe Go(); on Go { goto B; } }
  terminal B { } }
`
	c := start(t, map[string]string{"dup.wf": src})
	c.open("dup.wf", src)
	c.version("dup.wf", 1)
	// The second workflow's `goto B` goes to its own B.
	g := at(src, "goto B", 1, 5)
	def, err := c.srv.Definition(c.ctx, &protocol.DefinitionParams{TextDocumentPositionParams: docPos(c, "dup.wf", g.Line, g.Character)})
	if err != nil {
		t.Fatal(err)
	}
	locs := def.(protocol.LocationSlice)
	if want := at(src, "terminal B", 1, 9); len(locs) != 1 || locs[0].Range.Start != want {
		t.Fatalf("definition of the second workflow's B: %v, want one at %v", locs, want)
	}
	// Renaming the second workflow edits only its own name.
	w := at(src, "workflow W", 1, 9)
	we, err := c.srv.Rename(c.ctx, &protocol.RenameParams{TextDocumentPositionParams: docPos(c, "dup.wf", w.Line, w.Character), NewName: "V"})
	if err != nil {
		t.Fatal(err)
	}
	got := applyEdits(t, src, we.Changes[c.uri("dup.wf")])
	if strings.Count(got, "workflow W") != 1 || strings.Count(got, "workflow V") != 1 {
		t.Fatalf("rename of the second W:\n%s", got)
	}
}

// With Tracks, a state and the enum member it stores are one name: a
// rename of either renames both, so the program stays clean (no WF113).
func TestRenameTracksLink(t *testing.T) {
	src := `enum Stage { Open, Shut }
entity Door { Stage Stage; }
workflow W {
  Tracks = Door.Stage;
  Initial = Open;
  event Close();
  state Open { subscribe Close(); on Close { goto Shut; } }
  terminal Shut { }
}
`
	for _, tc := range []struct{ needle string }{{"goto Shut"}, {"Open, Shut"}} {
		c := start(t, map[string]string{"door.wf": src})
		c.open("door.wf", src)
		c.version("door.wf", 1)
		delta := 5
		if tc.needle == "Open, Shut" {
			delta = 6
		}
		p := at(src, tc.needle, 0, delta)
		we, err := c.srv.Rename(c.ctx, &protocol.RenameParams{TextDocumentPositionParams: docPos(c, "door.wf", p.Line, p.Character), NewName: "Closed"})
		if err != nil {
			t.Fatal(err)
		}
		got := applyEdits(t, src, we.Changes[c.uri("door.wf")])
		if strings.Contains(got, "Shut") || !strings.Contains(got, "enum Stage { Open, Closed }") || !strings.Contains(got, "terminal Closed") {
			t.Errorf("rename from %q:\n%s", tc.needle, got)
		}
	}
}

// Inside a string or a comment there is nothing to complete, as in gopls.
func TestNoCompletionInProse(t *testing.T) {
	src := `workflow W { Initial = A; event Go();
  // a comment about the state
  state A { subscribe Go(); on Go { Mail.Send("go to the state"); goto B; } }
  terminal B { } }
`
	c := start(t, map[string]string{"p.wf": src})
	c.open("p.wf", src)
	c.version("p.wf", 1)
	for _, tc := range []struct {
		needle string
		delta  int
		empty  bool
	}{
		{"a comment about", 2, true},
		{"the state\n", 9, true}, // the end of a line comment
		{"\"go to the", 4, true},
		{"goto B", 5, false},
	} {
		p := at(src, tc.needle, 0, tc.delta)
		res, err := c.srv.Completion(c.ctx, &protocol.CompletionParams{TextDocumentPositionParams: docPos(c, "p.wf", p.Line, p.Character)})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		if items, ok := res.(protocol.CompletionItemSlice); ok {
			for _, it := range items {
				got = append(got, it.Label)
			}
		}
		if tc.empty && len(got) > 0 {
			t.Errorf("completion at %q+%d offers %v, want nothing", tc.needle, tc.delta, got)
		}
		if !tc.empty && !slices.Contains(got, "B") {
			t.Errorf("completion at %q+%d: %v lacks B", tc.needle, tc.delta, got)
		}
	}
}
