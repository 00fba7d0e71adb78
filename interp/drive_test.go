package interp_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/check/timespan"
	"github.com/wfc-lang/wfc/interp"
)

// scripted is an engine of the test's own: a clock that hands out a list
// of actions, each as it is asked, at the time it names (and keeps handing
// them out after the run ended, unless stopAtEnd), and an executor whose
// attempts run on their own, as Temporal's activities do: each goes as
// the scenario's script says, and reports through the clock when it
// ends. It records what the drive loop asked it.
type scripted struct {
	now       interp.Ticks
	acts      []interp.Action
	steps     map[*check.Step]*interp.Script
	stopAtEnd bool
	err       error // returned by Next once the actions are out
	asked     []string
	// reports are the attempts running, by when they end; cancelled the
	// attempts the machine abandoned.
	reports   []interp.Report
	cancelled []*interp.Attempt
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
	// What arrives comes before what falls due at the same instant: the
	// scenario's actions, then the reports of attempts that end by then.
	k := s.firstReport()
	var end interp.Ticks
	if k >= 0 {
		end = s.reports[k].Attempt.Start + s.reports[k].Took
	}
	if len(s.acts) > 0 && (!has || s.acts[0].At <= due) && (k < 0 || s.acts[0].At <= end) {
		a := s.acts[0]
		s.acts = s.acts[1:]
		s.now = max(s.now, a.At)
		return interp.Arrived, a, nil
	}
	if k >= 0 && (!has || end <= due) {
		r := s.reports[k]
		s.reports = append(s.reports[:k], s.reports[k+1:]...)
		s.now = max(s.now, end)
		return interp.Reported, interp.Action{Kind: interp.ActReport, Report: &r}, nil
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

// firstReport is the index of the attempt that ends first (the first
// started among those ending at one instant), or -1.
func (s *scripted) firstReport() int {
	k := -1
	for i, r := range s.reports {
		if k < 0 || r.Attempt.Start+r.Took < s.reports[k].Attempt.Start+s.reports[k].Took {
			k = i
		}
	}
	return k
}

func fmtTicks(t interp.Ticks, has bool) string {
	if !has {
		return "none"
	}
	return timespan.Format(t)
}

func (s *scripted) Call(interp.Invocation) {}

func (s *scripted) Attempt(a *interp.Attempt) (interp.Report, bool) {
	f, took := s.steps[a.Step].Attempt(a.N)
	r := interp.Report{Attempt: a, Took: took, OK: f == nil}
	if f != nil {
		r.Kind, r.RetryAfter, r.HasRetryAfter = f.Kind, f.RetryAfter, f.HasRetryAfter
	}
	s.reports = append(s.reports, r)
	return interp.Report{}, false
}

func (s *scripted) Cancel(a *interp.Attempt) {
	s.cancelled = append(s.cancelled, a)
	for i, r := range s.reports {
		if r.Attempt == a {
			s.reports = append(s.reports[:i], s.reports[i+1:]...)
			return
		}
	}
}

// TestDriveOnAnotherEngine: the drive loop is the engine's only contact
// with a run: an engine of the test's own, answering what happens next as
// the virtual clock does but running attempts on their own and reporting
// them through its clock (as Temporal's activities do), gets the
// transcript the golden file has, for every decision of testdata/runs.
func TestDriveOnAnotherEngine(t *testing.T) {
	files, _ := filepath.Glob("testdata/runs/*.wf")
	ran := 0
	for _, f := range files {
		res, wf, sc := load(t, f)
		want, err := interp.Run(res, wf, sc)
		if err != nil {
			t.Fatal(err)
		}
		eng := &scripted{acts: sc.Actions, steps: sc.Steps}
		m := interp.NewMachine(res, wf, nil, eng, eng)
		m.Draws = sc.Draws
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

// TestDrawOnDemand: an engine that draws each jittered wait as it begins
// (Machine.Draw, Temporal's recorded random source) gets the transcript
// the same draws given up front (Machine.Draws) give, for every decision
// of testdata/runs with draws; and a draw outside [0, 1) counts as 0.
func TestDrawOnDemand(t *testing.T) {
	files, _ := filepath.Glob("testdata/runs/*.wf")
	ran := 0
	for _, f := range files {
		res, wf, sc := load(t, f)
		if len(sc.Draws) == 0 {
			continue
		}
		want, err := interp.Run(res, wf, sc)
		if err != nil {
			t.Fatal(err)
		}
		eng := &scripted{acts: sc.Actions, steps: sc.Steps}
		m := interp.NewMachine(res, wf, nil, eng, eng)
		drawn := 0
		m.Draw = func() float64 {
			u := sc.Draws[drawn%len(sc.Draws)]
			drawn++
			return u
		}
		if err := m.Drive(); err != nil {
			t.Fatal(err)
		}
		if got := m.Transcript().String(); got != want.String() {
			t.Errorf("%s: drawn on demand\n%s\ngiven up front\n%s", f, got, want)
		}
		if drawn == 0 {
			t.Errorf("%s: nothing was drawn", f)
		}
		// Out of range is 0: the same as a first draw of 0.
		zero := sc
		zero.Draws = []float64{0}
		nominal, _ := interp.Run(res, wf, zero)
		eng = &scripted{acts: sc.Actions, steps: sc.Steps}
		m = interp.NewMachine(res, wf, nil, eng, eng)
		m.Draw = func() float64 { return 1.5 }
		if err := m.Drive(); err != nil {
			t.Fatal(err)
		}
		if got := m.Transcript().String(); got != nominal.String() {
			t.Errorf("%s: a draw of 1.5\n%s\nwant as draws of 0\n%s", f, got, nominal)
		}
		ran++
	}
	if ran == 0 {
		t.Fatal("no run of testdata/runs has draws")
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

// TestCancelAbandonsAttempt: an attempt the engine runs on its own is
// abandoned (Executor.Cancel) when a goto leaves its state meanwhile, and
// its report, had it come, would be dropped; the transcript says cancel.
func TestCancelAbandonsAttempt(t *testing.T) {
	res, wf := compile(t, "drive.wf", driveProgram)
	step := wf.Steps[0]
	eng := &scripted{
		acts: []interp.Action{
			{At: 0, Kind: interp.ActSend, Event: wf.EventNamed("Pay")},
			{At: 5_000_000, Kind: interp.ActSend, Event: wf.EventNamed("Go")},
		},
		steps: map[*check.Step]*interp.Script{step: {Took: 10_000_000}},
	}
	m := interp.NewMachine(res, wf, nil, eng, eng)
	if err := m.Drive(); err != nil {
		t.Fatal(err)
	}
	if len(eng.cancelled) != 1 || eng.cancelled[0].Step != step || eng.cancelled[0].N != 1 {
		t.Fatalf("cancelled %v, want attempt 1 of the step\n%s", eng.cancelled, m.Transcript())
	}
	var kinds []string
	for _, e := range m.Transcript().Entries {
		kinds = append(kinds, e.Kind.String())
	}
	want := "start enter accept attempt call accept cancel enter end"
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("entries %s, want %s\n%s", got, want, m.Transcript())
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
	for _, k := range interp.Kinds() {
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
	case interp.KAttempt, interp.KFail, interp.KDone, interp.KGiveUp, interp.KSkip, interp.KTimeout:
		if s, ok := about.(*check.Step); !ok || s.Key != e.Name {
			return "not the step"
		}
	case interp.KCancel:
		switch a := about.(type) {
		case *check.Step:
			if a.Key != e.Name || e.Cause != check.CauseCancelled {
				return "not the step"
			}
		case *check.Subscription:
			if a.Event.Decl.Name.Name != e.Name || e.Cause != 0 {
				return "not the queued handler's subscription"
			}
		default:
			return "neither a step nor a subscription"
		}
	case interp.KCall:
		inv, ok := about.(*interp.Invocation)
		if !ok || inv.Call == nil || inv.Call.Fun != e.Name || inv.Name != e.Name || len(inv.Args) != len(e.Args) {
			return "not the call"
		}
		for k, v := range inv.Args {
			if v.Text != e.Args[k] {
				return "not the call's arguments"
			}
		}
	}
	return ""
}
