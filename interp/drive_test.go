package interp_test

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/check/timespan"
	"github.com/wfc-lang/wfc/codegen"
	"github.com/wfc-lang/wfc/interp"
)

// scripted is an engine of the test's own: a clock that hands out a list
// of actions, each as it is asked, at the time it names (and keeps handing
// them out after the run ended, unless stopAtEnd), and an executor whose
// attempts start a second apart and all fail. It records what the drive
// loop asked it.
type scripted struct {
	now       interp.Ticks
	acts      []interp.Action
	stopAtEnd bool
	err       error // returned by Next once the actions are out
	stop      string
	asked     []string
}

func (s *scripted) Now() interp.Ticks { return s.now }

func (s *scripted) Next(due interp.Ticks, has, ended bool) (interp.Happening, interp.Action, error) {
	state := "running"
	if ended {
		state = "ended"
	}
	s.asked = append(s.asked, fmtTicks(due, has)+" "+state)
	if ended && s.stopAtEnd {
		return interp.Over, interp.Action{}, nil
	}
	if len(s.acts) > 0 && (!has || s.acts[0].At <= due) {
		a := s.acts[0]
		s.acts = s.acts[1:]
		s.now = max(s.now, a.At)
		return interp.Arrived, a, nil
	}
	if has {
		s.now = max(s.now, due)
		return interp.Due, interp.Action{}, nil
	}
	if s.err != nil {
		return 0, interp.Action{}, s.err
	}
	return interp.Over, interp.Action{}, nil
}

func fmtTicks(t interp.Ticks, has bool) string {
	if !has {
		return "none"
	}
	return timespan.Format(t)
}

func (s *scripted) Call(interp.Invocation) {}

func (s *scripted) Step(_ *check.Step, sched *codegen.Schedule, _ []interp.Invocation) interp.StepResult {
	var r interp.StepResult
	for k := int64(0); k < sched.Attempts; k++ {
		r.Starts = append(r.Starts, s.now)
		s.now += 10_000_000
	}
	r.Stop = s.stop
	return r
}

// TestDriveOnAnotherEngine: the drive loop is the engine's only contact
// with a run: an engine of the test's own, answering what happens next as
// the virtual clock does, gets the transcript the golden file has, for
// every decision of testdata/runs without steps (whose attempts this
// engine times its own way).
func TestDriveOnAnotherEngine(t *testing.T) {
	files, _ := filepath.Glob("testdata/runs/*.wf")
	ran := 0
	for _, f := range files {
		res, wf, sc := load(t, f)
		if len(wf.Steps) > 0 {
			continue
		}
		want, err := interp.Run(res, wf, sc)
		if err != nil {
			t.Fatal(err)
		}
		eng := &scripted{acts: sc.Actions}
		m := interp.NewMachine(res, wf, nil, eng, eng)
		if err := m.Drive(); err != nil {
			t.Fatal(err)
		}
		if got := m.Transcript().String(); got != want.String() {
			t.Errorf("%s: on another engine\n%s\nthe virtual clock\n%s", f, got, want)
		}
		ran++
	}
	if ran < 10 {
		t.Fatalf("only %d programs ran", ran)
	}
}

const driveProgram = `workflow W {
  Autostart = true;
  Initial = A;
  event Go();
  event Pay();
  state A {
    subscribe Go();
    subscribe Pay();
    on Go { goto Done; }
    on Pay { Workflow.Once("charge", retry: Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAttempts(3)) { Bank.Charge(); } }
  }
  terminal Done { }
}
`

// TestDriveAfterTheEnd: once the run has ended the loop tells the clock
// so; a clock that goes on delivering has its actions rejected, and the
// loop stops when the transcript is full, whatever the clock does.
func TestDriveAfterTheEnd(t *testing.T) {
	res, wf := compile(t, "drive.wf", driveProgram)
	goEv := wf.EventNamed("Go")
	var acts []interp.Action
	for i := range 50 {
		acts = append(acts, interp.Action{At: interp.Ticks(i) * 10_000_000, Kind: interp.ActSend, Event: goEv})
	}
	eng := &scripted{acts: acts}
	m := interp.NewMachine(res, wf, nil, eng, eng)
	m.MaxEntries = 10
	if err := m.Drive(); err != nil {
		t.Fatal(err)
	}
	es := m.Transcript().Entries
	if len(es) != 9 || es[4].Kind != interp.KEnd || es[5].Kind != interp.KReject || es[5].Reason != interp.Ended || es[8].Kind != interp.KReject {
		t.Fatalf("transcript:\n%s", m.Transcript())
	}
	if got := eng.asked[len(eng.asked)-1]; got != "none ended" {
		t.Errorf("the clock was last asked %q, want about a run that ended", got)
	}

	// A clock that stops at the end hears of it once.
	eng = &scripted{acts: acts, stopAtEnd: true}
	m = interp.NewMachine(res, wf, nil, eng, eng)
	if err := m.Drive(); err != nil || len(m.Transcript().Entries) != 5 || len(eng.asked) != 2 {
		t.Fatalf("err %v, asked %q, transcript:\n%s", err, eng.asked, m.Transcript())
	}
}

// TestDriveClockError: a clock's error ends Drive with it.
func TestDriveClockError(t *testing.T) {
	res, wf := compile(t, "drive.wf", driveProgram)
	boom := errors.New("the engine went away")
	eng := &scripted{err: boom}
	m := interp.NewMachine(res, wf, nil, eng, eng)
	if err := m.Drive(); !errors.Is(err, boom) {
		t.Fatalf("Drive = %v, want the clock's error", err)
	}
}

// TestExecutorStops: an executor that cannot run a step's attempts says
// why, and the run stops with that reason after the attempts it reported.
func TestExecutorStops(t *testing.T) {
	res, wf := compile(t, "drive.wf", driveProgram)
	eng := &scripted{acts: []interp.Action{{At: 0, Kind: interp.ActSend, Event: wf.EventNamed("Pay")}},
		stop: "the engine lost the step"}
	m := interp.NewMachine(res, wf, nil, eng, eng)
	if err := m.Drive(); err != nil {
		t.Fatal(err)
	}
	es := m.Transcript().Entries
	last := es[len(es)-1]
	if last.Kind != interp.KStopped || last.Message != "the engine lost the step" || last.State != "A" {
		t.Fatalf("transcript:\n%s", m.Transcript())
	}
	attempts := 0
	for _, e := range es {
		if e.Kind == interp.KAttempt {
			attempts++
		}
	}
	if attempts != 3 {
		t.Errorf("%d attempts recorded before the stop, want the 3 reported", attempts)
	}
}

// TestSubjects: every entry of every golden run is told to OnEntry with
// the model object its kind names (Machine.OnEntry, interp.Subject), and
// that object is the one the entry's names print.
func TestSubjects(t *testing.T) {
	files, _ := filepath.Glob("testdata/runs/*.wf")
	kinds := map[interp.Kind]bool{}
	for _, f := range files {
		res, wf, sc := load(t, f)
		n := 0
		_, err := interp.RunWith(res, wf, sc, interp.Options{OnEntry: func(i int, e *interp.Entry, about interp.Subject) {
			if i != n {
				t.Errorf("%s: entry %d told as %d", f, n, i)
			}
			n++
			kinds[e.Kind] = true
			if why := subjectMismatch(wf, e, about); why != "" {
				t.Errorf("%s: entry %d (%s): %s", f, i, e, why)
			}
		}})
		if err != nil {
			t.Fatal(err)
		}
	}
	for k := interp.KStart; k <= interp.KStopped; k++ {
		if !kinds[k] && k != interp.KStopped {
			t.Errorf("no golden run has a %s entry", k)
		}
	}
}

// subjectMismatch says how about is not what entry e is about.
func subjectMismatch(wf *check.Workflow, e *interp.Entry, about interp.Subject) string {
	switch e.Kind {
	case interp.KStart:
		if about != wf {
			return "not its workflow"
		}
	case interp.KEnter, interp.KWaiting:
		if s, ok := about.(*check.State); !ok || s.Decl.Name.Name != e.State || s.Workflow != wf {
			return "not the state"
		}
	case interp.KEnd:
		if s, ok := about.(*check.State); !ok || s.Decl.Name.Name != e.State {
			return "not the state it ended in"
		}
	case interp.KTrack:
		if m, ok := about.(*check.EnumMember); !ok || m.Ident.Name != e.Member || m.Enum != wf.TrackedEnum {
			return "not the tracked member"
		}
	case interp.KAccept, interp.KTake:
		if s, ok := about.(*check.Subscription); !ok || s.State.Decl.Name.Name != e.State || (e.Kind == interp.KTake && s.Slot() != e.Name) ||
			(e.Kind == interp.KAccept && s.Event.Decl.Name.Name != e.Name) {
			return "not the subscription"
		}
	case interp.KReject:
		switch a := about.(type) {
		case *check.Event:
			if a.Decl.Name.Name != e.Name {
				return "not the event"
			}
		case *check.Slot:
			if a.Name != e.Name {
				return "not the slot"
			}
		case nil:
			if e.Name != "Start" {
				return "no subject for a rejected event or slot"
			}
		default:
			return "not an event or a slot"
		}
	case interp.KOpen, interp.KPass, interp.KMet, interp.KExhausted, interp.KOutcome:
		if m, ok := about.(*check.Milestone); !ok || m.Kind != e.Milestone || m.Subscription.Slot() != e.Name {
			return "not the milestone"
		}
	case interp.KWait:
		switch a := about.(type) {
		case *check.Milestone:
			if e.Milestone != a.Kind {
				return "not the milestone"
			}
		case *check.Step:
			if e.Milestone != 0 || a.Key != e.Name {
				return "not the step"
			}
		default:
			return "neither a milestone nor a step"
		}
	case interp.KAttempt, interp.KFail, interp.KDone, interp.KGiveUp:
		if s, ok := about.(*check.Step); !ok || s.Key != e.Name {
			return "not the step"
		}
	case interp.KCall:
		if c, ok := about.(*check.Call); !ok || c.Fun != e.Name {
			return "not the call"
		}
	}
	return ""
}
