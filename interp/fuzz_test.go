package interp_test

import (
	"path/filepath"
	"testing"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/interp"
)

// FuzzRun drives the programs of testdata/runs with scenarios made from
// the fuzzer's bytes: any events, slots, starts and failures at any times.
// Whatever happens, a run ends, its times never go back, nothing is handled
// before it fell due, and a second run writes the same transcript.
func FuzzRun(f *testing.F) {
	files, _ := filepath.Glob("testdata/runs/*.wf")
	type prog struct {
		res *check.Result
		wf  *check.Workflow
	}
	var progs []prog
	for _, p := range files {
		res, wf, _ := load(f, p)
		progs = append(progs, prog{res, wf})
	}
	f.Add(uint8(0), []byte{1, 0, 10, 2, 1, 20, 3, 0, 30})
	f.Add(uint8(13), []byte{0, 0, 0, 255, 255, 255, 9, 9, 9, 1, 1, 1})
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		p := progs[int(which)%len(progs)]
		sc := interp.Scenario{Steps: map[*check.Step]*interp.Script{}}
		for i, s := range p.wf.Steps {
			if i < len(data) {
				sc.Steps[s] = &interp.Script{
					Fails: []interp.Failure{{Times: int64(data[i] % 8), Always: data[i] > 250}},
					Took:  interp.Ticks(data[i]%4) * 10_000_000, // 0 to 3s
				}
			}
		}
		var at interp.Ticks
		for i := 0; i+2 < len(data); i += 3 {
			at += interp.Ticks(data[i+2]) * 10_000_000 // up to 25.5s apart
			a := interp.Action{At: at}
			switch data[i] % 3 {
			case 0:
				a.Kind = interp.ActStart
			case 1:
				a.Kind = interp.ActSend
				if len(p.wf.Events) == 0 {
					continue
				}
				a.Event = p.wf.Events[int(data[i+1])%len(p.wf.Events)]
				for _, prm := range a.Event.Params {
					v := interp.Value{Text: "1"}
					if e := prm.Type.Enum; e != nil && len(e.Members) > 0 {
						m := e.Members[int(data[i+1])%len(e.Members)]
						v = interp.Value{Text: m.Ident.Name, Member: m}
					}
					a.Args = append(a.Args, v)
				}
			case 2:
				a.Kind = interp.ActTake
				a.Slot = p.wf.SlotNamed([]string{"Worker", "Nobody", "Done", "Poke"}[data[i+1]%4])
			}
			sc.Actions = append(sc.Actions, a)
		}
		tr, err := interp.Run(p.res, p.wf, sc)
		if err != nil {
			t.Fatal(err)
		}
		var last interp.Ticks
		for i, e := range tr.Entries {
			if e.At < last {
				t.Fatalf("entry %d (%s) goes back in time from %d", i, e, last)
			}
			if e.Due > e.At {
				t.Fatalf("entry %d (%s) handled before it fell due", i, e)
			}
			last = e.At
		}
		started := false
		for _, e := range tr.Entries {
			started = started || e.Kind == interp.KStart
		}
		if _, ok := tr.End(); ok != started {
			t.Fatalf("started %v, but End() = %v:\n%s", started, ok, tr)
		}
		again, _ := interp.Run(p.res, p.wf, sc)
		if tr.String() != again.String() {
			t.Fatal("a second run differs")
		}
	})
}
