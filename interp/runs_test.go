package interp_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/wfc-lang/wfc"
	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/check/timespan"
	"github.com/wfc-lang/wfc/diag"
	goldenfile "github.com/wfc-lang/wfc/internal/golden"
	"github.com/wfc-lang/wfc/interp"
	"github.com/wfc-lang/wfc/parser"
)

var update = flag.Bool("update", false, "rewrite the golden transcripts")

// TestRuns runs each program of testdata/runs against the scenario its
// `// at T send E(args)`, `// at T take Slot`, `// at T start` and
// `// fail step N|always` comments describe, and compares the transcript
// with NAME.golden (-update rewrites them). Each file is one decision of
// docs/language.md's "Running a workflow".
func TestRuns(t *testing.T) {
	files, _ := filepath.Glob("testdata/runs/*.wf")
	if len(files) == 0 {
		t.Fatal("no programs in testdata/runs")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".wf")
		t.Run(name, func(t *testing.T) {
			res, wf, sc := load(t, f)
			tr, err := interp.Run(res, wf, sc)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, strings.TrimSuffix(f, ".wf")+".golden", tr.String())
			// The run is a pure function of the program and the scenario.
			again, _ := interp.Run(res, wf, sc)
			if d := cmp.Diff(tr, again); d != "" {
				t.Errorf("a second run differs (-first +second):\n%s", d)
			}
			validate(t, tr)
		})
	}
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	goldenfile.Check(t, path, got, *update, "interp")
}

// load checks a program (it must have no errors) and reads its scenario.
func load(t testing.TB, path string) (*check.Result, *check.Workflow, interp.Scenario) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	res, wf := compile(t, path, string(src))
	sc, err := scenario(res, wf, string(src))
	if err != nil {
		t.Fatal(err)
	}
	return res, wf, sc
}

func compile(t testing.TB, name, src string) (*check.Result, *check.Workflow) {
	t.Helper()
	r := wfc.Run(context.Background(), []parser.Source{{Name: name, Src: src}}, wfc.Options{})
	for _, d := range r.Diagnostics {
		if d.Severity == diag.Error {
			t.Fatalf("%s: %v", name, d)
		}
	}
	return r.Checked, r.Checked.Program.Workflows[0]
}

// scenario reads the scenario comments of src:
//
//	// at T send E(args) | take Slot | start
//	// fail STEP N|always [kind Enum.Member] [retry-after D]   (in order, as a test's Fail statements)
//	// takes STEP D [attempt K]
//	// draws U,U,…
func scenario(res *check.Result, wf *check.Workflow, src string) (interp.Scenario, error) {
	sc := interp.Scenario{Steps: map[*check.Step]*interp.Script{}}
	step := func(name string) (*interp.Script, error) {
		for _, s := range wf.Steps {
			if s.Consumer != nil && s.Key == name {
				if sc.Steps[s] == nil {
					sc.Steps[s] = &interp.Script{}
				}
				return sc.Steps[s], nil
			}
		}
		return nil, fmt.Errorf("no step %q", name)
	}
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		f := strings.Fields(strings.TrimPrefix(line, "//"))
		if !strings.HasPrefix(line, "//") || len(f) < 2 {
			continue
		}
		switch {
		case f[0] == "fail" && len(f) >= 3:
			scr, err := step(f[1])
			if err != nil {
				return sc, err
			}
			var fl interp.Failure
			if f[2] == "always" {
				fl.Always = true
			} else if fl.Times, err = strconv.ParseInt(f[2], 10, 64); err != nil {
				return sc, err
			}
			for k := 3; k+1 < len(f); k += 2 {
				switch f[k] {
				case "kind":
					en, mem, _ := strings.Cut(f[k+1], ".")
					for _, e := range res.Program.Enums {
						if e.Decl.Name.Name == en {
							fl.Kind = e.MemberNamed(mem)
						}
					}
					if fl.Kind == nil {
						return sc, fmt.Errorf("no kind %s", f[k+1])
					}
				case "retry-after":
					if fl.RetryAfter, err = timespan.Parse(f[k+1]); err != nil {
						return sc, err
					}
					fl.HasRetryAfter = true
				}
			}
			scr.Fails = append(scr.Fails, fl)
		case f[0] == "takes" && len(f) >= 3:
			scr, err := step(f[1])
			if err != nil {
				return sc, err
			}
			d, err := timespan.Parse(f[2])
			if err != nil {
				return sc, err
			}
			if len(f) == 5 && f[3] == "attempt" {
				k, err := strconv.ParseInt(f[4], 10, 64)
				if err != nil {
					return sc, err
				}
				if scr.Takes == nil {
					scr.Takes = map[int64]interp.Ticks{}
				}
				scr.Takes[k] = d
			} else {
				scr.Took = d
			}
		case f[0] == "draws":
			for _, u := range strings.Split(f[1], ",") {
				x, err := strconv.ParseFloat(u, 64)
				if err != nil {
					return sc, err
				}
				sc.Draws = append(sc.Draws, x)
			}
		case f[0] == "at" && len(f) >= 3:
			at, err := timespan.Parse(f[1])
			if err != nil {
				return sc, err
			}
			a := interp.Action{At: at}
			switch f[2] {
			case "start":
				a.Kind = interp.ActStart
			case "take":
				a.Kind, a.Slot = interp.ActTake, wf.SlotNamed(f[3])
			case "send":
				a.Kind = interp.ActSend
				call := strings.Join(f[3:], " ")
				name, args, _ := strings.Cut(strings.TrimSuffix(call, ")"), "(")
				if a.Event = wf.EventNamed(name); a.Event == nil {
					return sc, fmt.Errorf("no event %q", name)
				}
				if args != "" {
					var texts []string
					for _, s := range strings.Split(args, ",") {
						texts = append(texts, strings.TrimSpace(s))
					}
					a.Args = interp.EventArgs(a.Event, texts)
				}
			default:
				return sc, fmt.Errorf("unknown action %q", f[2])
			}
			sc.Actions = append(sc.Actions, a)
		}
	}
	return sc, nil
}

// validate checks the JSON transcript against its schema.
func validate(t *testing.T, tr *interp.Transcript) {
	t.Helper()
	c := jsonschema.NewCompiler()
	sch, err := c.Compile("../docs/schema/transcript.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	b, err := tr.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(doc); err != nil {
		t.Errorf("the JSON transcript does not match docs/schema/transcript.schema.json: %v", err)
	}
	var back interp.Transcript
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(*tr, back); d != "" {
		t.Errorf("JSON does not round-trip (-run +decoded):\n%s", d)
	}
}

// compileAny checks a program that may have errors.
func compileAny(src string) (*check.Result, *check.Workflow) {
	r := wfc.Run(context.Background(), []parser.Source{{Name: "p.wf", Src: src}}, wfc.Options{})
	return r.Checked, r.Checked.Program.Workflows[0]
}
