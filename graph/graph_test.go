package graph

import (
	"bytes"
	"encoding/xml"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/codegen"
	goldenfile "github.com/wfc-lang/wfc/internal/golden"
	"github.com/wfc-lang/wfc/parser"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// missing skips a test whose outside tool is not installed, unless
// WFC_GRAPH_TOOLS=require (set by .ci/run, which installs them): there a
// missing tool fails the test instead of skipping it unseen.
func missing(t *testing.T, what string) {
	t.Helper()
	if os.Getenv("WFC_GRAPH_TOOLS") == "require" {
		t.Fatalf("%s (WFC_GRAPH_TOOLS=require)", what)
	}
	t.Skip(what)
}

// mermaidReady reports whether node and the mermaid package are installed.
func mermaidReady(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		missing(t, "node is not installed")
	}
	if _, err := os.Stat("testdata/mermaid/node_modules/mermaid/package.json"); err != nil {
		missing(t, "mermaid is not installed: run `npm ci` in graph/testdata/mermaid")
	}
	return node
}

// inputs are the programs drawn by the golden tests: the language's own
// examples and testdata/*.wf here.
func inputs() []string {
	files, _ := filepath.Glob("testdata/*.wf")
	files = append(files, "../testdata/examples/jobflow/jobflow.wf", "../testdata/examples/orders")
	return files
}

// draw checks and lowers one file, or the files of a directory as one
// program, as `wfc graph` does, and draws it.
func draw(t *testing.T, path string, f Format) string {
	t.Helper()
	files := []string{path}
	if !strings.HasSuffix(path, ".wf") {
		files, _ = filepath.Glob(filepath.Join(path, "*.wf"))
	}
	var srcs []parser.Source
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, parser.Source{Name: filepath.Base(file), Src: string(src)})
	}
	prog, _ := parser.Parse(srcs, parser.Options{})
	res := check.Check(prog)
	var b bytes.Buffer
	in := Input{Program: res.Program, Schedules: codegen.Lower(res, codegen.Options{})}
	if err := Write(&b, in, f); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

var ext = map[Format]string{Mermaid: ".mmd", DOT: ".dot"}

// golden is where the drawing of file in format f is kept.
func golden(file string, f Format) string {
	return filepath.Join("testdata", "golden", strings.TrimSuffix(filepath.Base(file), ".wf")+ext[f])
}

// TestGolden compares both formats of every input with its golden file
// (`go test -update` rewrites them) and checks that drawing is deterministic.
func TestGolden(t *testing.T) {
	for _, file := range inputs() {
		for _, f := range Formats {
			got := draw(t, file, f)
			if again := draw(t, file, f); again != got {
				t.Errorf("%s %s: two runs differ", file, f)
			}
			goldenfile.Check(t, golden(file, f), got, *update, "graph")
		}
	}
}

// TestWhatIsDrawn pins the content the issue asks for on the features input.
func TestWhatIsDrawn(t *testing.T) {
	m := draw(t, "testdata/features.wf", Mermaid)
	for _, want := range []string{
		"[*] --> w1_Drafted\n",                                // initial
		"w1_InReview --> w1_Published : Reviewer / Approve\n", // goto with handler and case
		"w1_InReview --> w1_Escalated : Reviewer Finished: 3 windows, gives up at 3d15m–3d45m\n",
		"w1_InReview : step note: 1 attempt, not retried\n", // steps with budgets
		"class w1_Orphan unreachable\n",                     // WF201
		"class w1_Escalated terminalError\n",
		"class w1_Published terminal\n",
		"w2_Drafted --> w2_Published : Go\n", // a second workflow, same state names
		"w1_Waiting --> w1_InReview : Ping\n    w1_Waiting --> w1_Escalated : Finished: 1 window, gives up at 1m\n", // source order
	} {
		if !strings.Contains(m, want) {
			t.Errorf("mermaid output lacks %q", want)
		}
	}
	// A catch's gotos are edges, labelled with the case that takes them.
	c := draw(t, "testdata/catch.wf", Mermaid)
	for _, want := range []string{
		"w1_Charging --> w1_Declined : Pay / catch ChargeError.Declined\n",
		"w1_Charging --> w1_Failed : Pay / catch Exhausted\n",
		"w1_Charging --> w1_Paid : Pay\n",
	} {
		if !strings.Contains(c, want) {
			t.Errorf("mermaid output of catch.wf lacks %q:\n%s", want, c)
		}
	}
	d := draw(t, "testdata/errors.wf", DOT)
	for _, want := range []string{
		`"w1_A" -> "w1_Done" [label=" Finished  "];`, // a policy with errors: no numbers
		`"w1_Dnoe" [label="Dnoe", style="rounded,dotted"];`,
	} {
		if !strings.Contains(d, want) {
			t.Errorf("dot output lacks %q", want)
		}
	}
}

// TestDOTRenders renders every DOT golden with Graphviz (where `dot` is
// installed; .ci/run installs it) and checks that an SVG comes out with no
// warning, and that it is well-formed XML: testdata/hostile.wf holds every
// character a label must not carry raw (an ESC used to break the SVG, a NUL
// to make dot fail).
func TestDOTRenders(t *testing.T) {
	dot, err := exec.LookPath("dot")
	if err != nil {
		missing(t, "Graphviz's dot is not installed")
	}
	for _, file := range inputs() {
		cmd := exec.Command(dot, "-Tsvg", golden(file, DOT))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil || stderr.Len() > 0 || !bytes.Contains(out, []byte("</svg>")) {
			t.Errorf("dot -Tsvg %s: %v\n%s", golden(file, DOT), err, stderr.String())
		}
		if err := wellFormed(out); err != nil {
			t.Errorf("dot -Tsvg %s: not well-formed XML: %v", golden(file, DOT), err)
		}
	}
}

// TestMermaidParses parses every Mermaid golden with Mermaid's own parser
// (mermaid@11 under Node, installed in testdata/mermaid by .ci/run).
func TestMermaidParses(t *testing.T) {
	node := mermaidReady(t)
	args := []string{"testdata/mermaid/parse.mjs"}
	for _, file := range inputs() {
		args = append(args, golden(file, Mermaid))
	}
	out, err := exec.Command(node, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("mermaid parse: %v\n%s", err, out)
	}
	if n := strings.Count(string(out), ": stateDiagram"); n != len(args)-1 {
		t.Errorf("parsed %d of %d diagrams:\n%s", n, len(args)-1, out)
	}
}

// TestMermaidParserRejects makes sure the parser check can fail: a broken
// diagram is refused.
func TestMermaidParserRejects(t *testing.T) {
	node := mermaidReady(t)
	bad := filepath.Join(t.TempDir(), "bad.mmd")
	if err := os.WriteFile(bad, []byte("stateDiagram-v2\n  A --> B : x\n  A -- > }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(node, "testdata/mermaid/parse.mjs", bad).CombinedOutput(); err == nil {
		t.Errorf("a broken diagram parsed:\n%s", out)
	}
}

// TestMermaidText: characters with a meaning in Mermaid become entity codes.
func TestMermaidText(t *testing.T) {
	if got, want := mermaidText(`a "b" #1; {c} % d`), "a #34;b#34; #35;1#59; #123;c#125; #37; d"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestDocsShowGolden: docs/graph.md shows the example's Mermaid golden, and
// docs/jobflow.svg exists (it is rendered from the DOT golden).
func TestDocsShowGolden(t *testing.T) {
	doc, err := os.ReadFile("../docs/graph.md")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(golden("jobflow.wf", Mermaid))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "```mermaid\n"+string(want)+"```\n") {
		t.Error("docs/graph.md does not show the current Mermaid golden of jobflow.wf")
	}
	svg, err := os.ReadFile("../docs/jobflow.svg")
	if err != nil || !bytes.Contains(svg, []byte("workflow JobFlow")) {
		t.Errorf("docs/jobflow.svg: %v", err)
	}
}

// FuzzGraph draws any source in both formats: it never panics and the
// drawing is deterministic.
func FuzzGraph(f *testing.F) {
	for _, p := range append(inputs(), "../testdata/examples/orders/fulfilment.wf", "../testdata/cases/wf201_unreachable.wf") {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b))
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		prog, _ := parser.Parse([]parser.Source{{Name: "f.wf", Src: src}}, parser.Options{Workers: 1})
		res := check.Check(prog)
		in := Input{Program: res.Program, Schedules: codegen.Lower(res, codegen.Options{})}
		for _, format := range Formats {
			var a, b bytes.Buffer
			if err := Write(&a, in, format); err != nil {
				t.Fatal(err)
			}
			if err := Write(&b, in, format); err != nil {
				t.Fatal(err)
			}
			if a.String() != b.String() {
				t.Fatalf("%s: two drawings differ", format)
			}
		}
	})
}

// wellFormed reads doc to its end as XML.
func wellFormed(doc []byte) error {
	d := xml.NewDecoder(bytes.NewReader(doc))
	d.Strict = true
	d.Entity = xml.HTMLEntity
	for {
		if _, err := d.Token(); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
	}
}

// TestWellFormedCanFail: the XML check refuses what dot made of an ESC.
func TestWellFormedCanFail(t *testing.T) {
	if err := wellFormed([]byte("<svg><text>a\x1bb</text></svg>")); err == nil {
		t.Error("an ESC in XML passed")
	}
	if err := wellFormed([]byte("<svg><text>a &amp; b</text></svg>")); err != nil {
		t.Error(err)
	}
}

// TestLabelsShowHostileCharacters: in both formats a label shows every
// control, C1, bidi and invisible character as an escape, `&` cannot start
// an entity, and `##[` never appears.
func TestLabelsShowHostileCharacters(t *testing.T) {
	for _, f := range Formats {
		got := draw(t, "testdata/hostile.wf", f)
		for _, r := range got {
			if r != '\n' && (r < 0x20 || r >= 0x7f && r <= 0xa0 || r == 0xad || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)) {
				t.Errorf("%s: raw U+%04X", f, r)
			}
		}
		if strings.Contains(got, "&#8238;") || strings.Contains(got, "##[") {
			t.Errorf("%s: an entity or a CI command passed through:\n%s", f, got)
		}
		if !strings.Contains(got, "u202e") || !strings.Contains(got, "x1b") {
			t.Errorf("%s: the characters are not shown:\n%s", f, got)
		}
	}
}
