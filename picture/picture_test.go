package picture

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/codegen"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/internal/golden"
	"github.com/wfc-lang/wfc/parser"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// load parses and checks one file, or the *.wf files of a directory (tests
// included) as one program.
func load(t testing.TB, path string) *check.Result {
	t.Helper()
	files := []string{path}
	if !strings.HasSuffix(path, ".wf") {
		files, _ = filepath.Glob(filepath.Join(path, "*.wf"))
	}
	var srcs []parser.Source
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, parser.Source{Name: filepath.ToSlash(f), Src: string(b)})
	}
	prog, ds := parser.Parse(srcs, parser.Options{})
	res := check.Check(prog)
	for _, d := range append(ds, res.Diags...) {
		if d.Severity == diag.Error {
			t.Fatalf("%s: %s", path, d.Message)
		}
	}
	return res
}

// scheduleInputs are the programs whose schedule pictures are kept as
// golden files.
var scheduleInputs = []struct {
	name, path string
	opt        codegen.Options
}{
	{"jobflow", "../testdata/examples/jobflow/jobflow.wf", codegen.Options{}},
	{"orders", "../testdata/examples/orders", codegen.Options{}},
	{"policies", "../testdata/schedule/policies.wf", codegen.Options{}},
	{"policies_draws", "../testdata/schedule/policies.wf", codegen.Options{Draws: []float64{0, 0.75, 0.5}, AttemptDuration: 5 * 10_000_000}},
	{"hostile", "testdata/hostile.wf", codegen.Options{}},
}

func TestScheduleGolden(t *testing.T) {
	for _, in := range scheduleInputs {
		t.Run(in.name, func(t *testing.T) {
			res := load(t, in.path)
			var b strings.Builder
			if err := Schedules(&b, codegen.Lower(res, in.opt), Options{Standalone: true}); err != nil {
				t.Fatal(err)
			}
			checkSafe(t, b.String())
			golden.Check(t, filepath.Join("testdata", in.name+".schedule.svg"), b.String(), *update, "picture")
		})
	}
}

// TestScheduleMarksAtOffsets: every attempt's mark starts at the x that
// its offset in the table gives on the picture's linear axis, and the
// axis ends at the give-up. The exponential policy of docs/language.md's
// worked numbers: 2s 4s 8s … capped at 5m, 12 attempts.
func TestScheduleMarksAtOffsets(t *testing.T) {
	res := load(t, "../testdata/schedule/policies.wf")
	ss := codegen.Lower(res, codegen.Options{})
	var capped *codegen.Schedule
	for _, s := range ss {
		if s.Consumer.StepName() == "capped" {
			capped = s
		}
	}
	var b strings.Builder
	if err := Schedules(&b, []*codegen.Schedule{capped}, Options{}); err != nil {
		t.Fatal(err)
	}
	// The starts of docs/language.md's table, in seconds.
	want := []float64{0, 2, 6, 14, 30, 62, 126, 254, 510, 810, 1110, 1410}
	els := elements(t, b.String())
	var xs []float64
	for _, e := range els {
		if e.name == "rect" && strings.HasPrefix(e.attr["class"], "attempt") {
			xs = append(xs, parseF(t, e.attr["x"]))
		}
	}
	if len(xs) != len(want) {
		t.Fatalf("%d marks, want %d", len(xs), len(want))
	}
	x0, x1 := xs[0], xs[len(xs)-1]
	for k := range want {
		// The table's offset over the last start, against the mark's x.
		got := (xs[k] - x0) / (x1 - x0)
		if d := got - want[k]/want[len(want)-1]; d > 0.001 || d < -0.001 {
			t.Errorf("attempt %d at %.4f of the axis, want %.4f", k+1, got, want[k]/want[len(want)-1])
		}
	}
}

// TestHostileNamesAreText: a step name or message holding markup, a
// `javascript:` URL, bidi and control characters is drawn as text: the
// picture has only the renderer's own elements and attributes, no raw
// control or bidi character, and the names read back as the text they are.
func TestHostileNamesAreText(t *testing.T) {
	res := load(t, "testdata/hostile.wf")
	var b strings.Builder
	if err := Schedules(&b, codegen.Lower(res, codegen.Options{}), Options{Standalone: true}); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	checkSafe(t, svg)
	chars := charData(t, svg)
	for _, want := range []string{`<script>alert(1)</script>`, `</svg><img src=x onerror=alert(1)>`, `javascript:alert(1)`, `\u202egnp.exe\u202c`} {
		if !strings.Contains(chars, want) {
			t.Errorf("the picture's text lacks %q", want)
		}
	}
}

// allowed are the elements and attributes the renderer writes; anything
// else in a picture is input that escaped.
var allowed = map[string]bool{"svg": true, "title": true, "desc": true, "style": true, "g": true, "rect": true,
	"line": true, "text": true, "circle": true, "path": true, "polygon": true}

// checkSafe parses svg as XML and fails on an element or attribute the
// renderer does not write, an event handler, a link, or a raw control or
// bidi character.
func checkSafe(t *testing.T, svg string) {
	t.Helper()
	for _, r := range svg {
		if r < 0x20 && r != '\n' || r >= 0x7f && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f {
			t.Errorf("raw %U in the picture", r)
		}
	}
	for _, e := range elements(t, svg) {
		if !allowed[e.name] {
			t.Errorf("element <%s> in the picture", e.name)
		}
		for k, v := range e.attr {
			if strings.HasPrefix(k, "on") || k == "href" || strings.Contains(strings.ToLower(v), "javascript:") || strings.Contains(v, "url(") {
				t.Errorf("attribute %s=%q on <%s>", k, v, e.name)
			}
		}
	}
}

type element struct {
	name string
	attr map[string]string
}

func elements(t *testing.T, svg string) []element {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(svg))
	var out []element
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("not XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			e := element{name: se.Name.Local, attr: map[string]string{}}
			for _, a := range se.Attr {
				e.attr[a.Name.Local] = a.Value
			}
			out = append(out, e)
		}
	}
}

// charData is the text of every element, decoded.
func charData(t *testing.T, svg string) string {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(svg))
	var b bytes.Buffer
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return b.String()
		}
		if err != nil {
			t.Fatal(err)
		}
		if cd, ok := tok.(xml.CharData); ok {
			b.Write(cd)
			b.WriteByte('\n')
		}
	}
}

func parseF(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
