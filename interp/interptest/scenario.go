// Package interptest reads the scenarios that interp's golden runs
// (interp/testdata/runs) write in comments, for every engine's tests: the
// reference interpreter's (interp) and Temporal's (integration/temporal)
// run the same programs on the same scenarios, read once, here.
package interptest

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/check/timespan"
	"github.com/wfc-lang/wfc/interp"
)

// Scenario reads the scenario comments of src, the form interp's golden
// runs (interp/testdata/runs) write their scenario in:
//
//	// at T send E(args) | take Slot | start
//	// fail STEP N|always [kind Enum.Member] [retry-after D]   (in order, as a test's Fail statements)
//	// takes STEP D [attempt K]
//	// draws U,U,…
func Scenario(res *check.Result, wf *check.Workflow, src string) (interp.Scenario, error) {
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
