package graph

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/codegen"
	"github.com/wfc-lang/wfc/parser"
)

// graphvizMaxString is the longest quoted string Graphviz reads: a label of
// 16,383 bytes or more between its quotes is "a syntax error … scanning a
// quoted string (missing endquote? longer than 16384?)" (dot 2.43).
const graphvizMaxString = 16382

// longNames is a workflow whose every label is huge: a state, an event (a
// handler's label), an enum member (a case's label) and a step's name of
// 20,000 characters, the step's mostly characters that escaping lengthens.
func longNames() string {
	long := strings.Repeat("x", 20000)
	step := strings.Repeat(`a\u202e&\"\\`+"\u202e", 4000) // as written in the source
	return "enum E { M" + long + ", N }\n" +
		"workflow W" + long + " {\n  Initial = A;\n  event Go" + long + "(E e);\n" +
		"  state A { subscribe Go" + long + "(E e); on Go" + long + " {\n" +
		"    Workflow.Once(\"" + step + "\") { X.Y(); }\n" +
		"    M" + long + " { goto S" + long + "; } N { goto S" + long + "; } } }\n" +
		"  terminal S" + long + " { } }\n"
}

func drawSource(t *testing.T, src string, f Format) string {
	t.Helper()
	prog, _ := parser.Parse([]parser.Source{{Name: "long.wf", Src: src}}, parser.Options{})
	res := check.Check(prog)
	var b bytes.Buffer
	if err := Write(&b, Input{Program: res.Program, Schedules: codegen.Lower(res, codegen.Options{})}, f); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// dotStrings lists the quoted strings of a DOT document, as written.
func dotStrings(doc string) []string {
	var out []string
	for i := 0; i < len(doc); i++ {
		if doc[i] != '"' {
			continue
		}
		j := i + 1
		for j < len(doc) && doc[j] != '"' {
			if doc[j] == '\\' {
				j++
			}
			j++
		}
		out = append(out, doc[i+1:min(j, len(doc))])
		i = j
	}
	return out
}

// TestLongLabelsCut: a label longer than MaxLabel characters is cut and
// ends with "…", in both formats, and a state whose name is that long is
// known by its number; so no string of the DOT output passes what Graphviz
// reads, and dot draws it (where it is installed).
func TestLongLabelsCut(t *testing.T) {
	src := longNames()
	d := drawSource(t, src, DOT)
	cuts := 0
	for _, s := range dotStrings(d) {
		if len(s) > graphvizMaxString {
			t.Errorf("a DOT string of %d bytes: %.80s…", len(s), s)
		}
		if strings.Contains(s, "…") {
			cuts++
		}
	}
	if cuts < 5 { // the workflow, the state, the step, two edges
		t.Errorf("%d labels cut, want every long one", cuts)
	}
	for _, want := range []string{`"w1_2" [label="Sxxx`, `"w1_A" -> "w1_2" [label=" Goxxx`} {
		if !strings.Contains(d, want) {
			t.Errorf("DOT lacks %q", want)
		}
	}
	m := drawSource(t, src, Mermaid)
	for _, line := range strings.Split(m, "\n") {
		if utf8.RuneCountInString(line) > 12*MaxLabel {
			t.Errorf("a Mermaid line of %d characters: %.80s…", utf8.RuneCountInString(line), line)
		}
	}
	if !strings.Contains(m, "state \"S"+strings.Repeat("x", MaxLabel-2)+"…\" as w1_2\n") {
		t.Errorf("the long state is not cut at %d characters in Mermaid", MaxLabel)
	}
	dot, err := exec.LookPath("dot")
	if err != nil {
		missing(t, "Graphviz's dot is not installed")
	}
	cmd := exec.Command(dot, "-Tsvg")
	cmd.Stdin = strings.NewReader(d)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil || stderr.Len() > 0 || !bytes.Contains(out, []byte("</svg>")) {
		t.Errorf("dot -Tsvg: %v\n%.400s", err, stderr.String())
	}
}

// TestLabelBound: MaxLabel characters, each escaped as long as any can be,
// stay within what Graphviz reads, with room for the edge label's spaces.
func TestLabelBound(t *testing.T) {
	longest, which := 0, rune(0)
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		if n := len(dotString(string(r))) - 2; n > longest {
			longest, which = n, r
		}
	}
	if n := MaxLabel*longest + 8; n > graphvizMaxString {
		t.Errorf("%d characters of up to %d bytes each (%U) make %d bytes, past %d", MaxLabel, longest, which, n, graphvizMaxString)
	}
	if got := cut(strings.Repeat("é", MaxLabel)); got != strings.Repeat("é", MaxLabel) {
		t.Error("a label of MaxLabel characters was cut")
	}
	if got := cut(strings.Repeat("é", MaxLabel+1)); got != strings.Repeat("é", MaxLabel-1)+"…" || utf8.RuneCountInString(got) != MaxLabel {
		t.Errorf("a label of MaxLabel+1 characters: %d characters", utf8.RuneCountInString(got))
	}
}
