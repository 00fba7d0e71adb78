package picture

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/check/timespan"
)

// RunOptions tune a run timeline.
type RunOptions struct {
	Options
	// States are the workflow's states in source order: each gets a lane,
	// in this order, even if the run never entered it. Without them the
	// lanes are the states the transcript names, in the order it names
	// them.
	States []State
}

// State is a lane of a run timeline.
type State struct {
	Name     string
	Terminal bool
	Error    bool // a `terminal error` state
}

// entry is a transcript entry as docs/schema/transcript.schema.json
// describes it. The run timeline reads the documented JSON, not the
// interpreter's types, so it draws any engine's transcript; a kind it does
// not know is still drawn (a plain tick with the entry's text).
type entry struct {
	At        int64    `json:"at"`
	Due       int64    `json:"due"`
	Held      bool     `json:"held"`
	Kind      string   `json:"kind"`
	State     string   `json:"state"`
	Name      string   `json:"name"`
	Milestone string   `json:"milestone"`
	Outcome   string   `json:"outcome"`
	N         int64    `json:"n"`
	Of        int64    `json:"of"`
	Wait      int64    `json:"wait"`
	Until     int64    `json:"until"`
	InWait    bool     `json:"in_wait"`
	Args      []string `json:"args"`
	Field     string   `json:"field"`
	Member    string   `json:"member"`
	Reason    string   `json:"reason"`
	Message   string   `json:"message"`
	Error     bool     `json:"error"`
}

type transcript struct {
	Version  int     `json:"version"`
	Workflow string  `json:"workflow"`
	Entries  []entry `json:"entries"`
}

// maxRunMarks bounds the entries drawn one by one: a run of a million
// entries draws its first maxRunMarks and says how many it left out.
const maxRunMarks = 2000

// The run timeline's geometry.
const (
	laneH   = 30.0
	runMinW = 760.0
)

// markKind is how an entry of a kind is drawn.
type markKind uint8

const (
	markTick  markKind = iota // a short line (unknown kinds, track)
	markDot                   // an event accepted
	markCross                 // a rejection
	markRhomb                 // a slot taken
	markBar                   // an attempt
	markFlag                  // met, done, give-up, exhausted, outcome
	markEnd                   // the end of the run
	markNone                  // drawn by another (enter, open, wait)
)

// marks says how each kind of entry is drawn; a kind that is not here is
// drawn as a tick, so new kinds (error kinds, timeouts, budgets) show up
// before they get a mark of their own.
var marks = map[string]struct {
	kind  markKind
	class string
}{
	"start": {markTick, "start"}, "enter": {markNone, ""}, "track": {markTick, "track"},
	"accept": {markDot, "event"}, "reject": {markCross, "event reject"}, "take": {markRhomb, "take"},
	"open": {markNone, ""}, "pass": {markTick, "pass"}, "met": {markFlag, "done"}, "wait": {markNone, ""},
	"exhausted": {markFlag, "fail"}, "outcome": {markFlag, "fail"}, "attempt": {markBar, "attempt"},
	"fail": {markCross, "fail"}, "done": {markFlag, "done"}, "give-up": {markFlag, "fail"}, "call": {markTick, "call"},
	"end": {markEnd, "end"}, "waiting": {markEnd, "end waiting"}, "stopped": {markEnd, "end error"},
}

// Run draws a run timeline from a transcript's JSON form: a lane per
// state, the time the run spent in each as a bar, windows from their
// opening to their end (green once met), waits as lines, and every other
// entry as a mark at its time — events (a dot; a cross when rejected),
// slots taken, attempts, failures, outcomes, calls — and the end. Each
// mark carries its entry's index (data-entry), which the playground links
// to the transcript's line.
func Run(w io.Writer, transcriptJSON []byte, opt RunOptions) error {
	var tr transcript
	if err := json.Unmarshal(transcriptJSON, &tr); err != nil {
		return fmt.Errorf("not a transcript: %w", err)
	}
	es := tr.Entries
	cut := 0
	if len(es) > maxRunMarks {
		cut = len(es) - maxRunMarks
		es = es[:maxRunMarks]
	}
	// The lanes.
	lanes := map[string]int{}
	var states []State
	for _, s := range opt.States {
		if _, ok := lanes[s.Name]; !ok {
			lanes[s.Name] = len(states)
			states = append(states, s)
		}
	}
	for _, e := range es {
		if e.State != "" && e.Kind != "start" {
			if _, ok := lanes[e.State]; !ok {
				lanes[e.State] = len(states)
				states = append(states, State{Name: e.State})
			}
		}
	}
	// The time axis: to the last entry, and to the end of every window
	// drawn (a window met or left early ends there).
	var span int64
	for i, e := range es {
		span = max(span, e.At)
		if e.Kind == "open" {
			until, _ := windowEnd(es[i+1:], e)
			span = max(span, until)
		}
	}
	labelW := 0.0
	for _, s := range states {
		labelW = max(labelW, textWidth(s.Name))
	}
	labelW = min(labelW, 200) + 16
	width := runMinW
	sc := scale{x0: margin + labelW, x1: width - margin - 8, span: max(span, 1)}
	if span == 0 {
		sc.span = timespan.TicksPerSecond
	}
	top := margin + lineH + 8
	laneY := func(name string) float64 {
		k, ok := lanes[name]
		if !ok {
			return top - laneH // above the lanes: before the run started
		}
		return top + float64(k)*laneH
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<text x=\"%s\" y=\"%s\" class=\"head\">%s</text>\n", num(margin), num(margin+fontSize), text(runTitle(tr, len(tr.Entries))))
	for k, s := range states {
		y := top + float64(k)*laneH
		fmt.Fprintf(&b, "<rect class=\"lane\" x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\"/>\n", num(margin), num(y+1), num(width-2*margin), num(laneH-2))
		fmt.Fprintf(&b, "<text class=\"lane-label\" x=\"%s\" y=\"%s\" data-state=\"%s\">%s</text>\n", num(margin+4), num(y+laneH/2+4), text(s.Name), text(clip(s.Name, labelW-8)))
	}
	bottom := top + float64(len(states))*laneH
	axisY := bottom + 6
	fmt.Fprintf(&b, "<line class=\"axis\" x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\"/>\n", num(sc.x0), num(axisY), num(sc.x1), num(axisY))
	for _, t := range ticks(sc.span) {
		x := sc.x(t)
		fmt.Fprintf(&b, "<line class=\"grid\" x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\"/>\n", num(x), num(top), num(x), num(axisY+3))
		fmt.Fprintf(&b, "<text class=\"tick\" x=\"%s\" y=\"%s\" text-anchor=\"middle\">%s</text>\n", num(x), num(axisY+15), timespan.Format(t))
	}
	// Time in each state: from entering it to entering the next, or to
	// the end of the transcript.
	end := int64(0)
	if len(es) > 0 {
		end = es[len(es)-1].At
	}
	for i, e := range es {
		if e.Kind != "enter" {
			continue
		}
		until := end
		for _, f := range es[i+1:] {
			if f.Kind == "enter" {
				until = f.At
				break
			}
		}
		cls := "in-state"
		if k, ok := lanes[e.State]; ok && states[k].Terminal {
			cls += " terminal"
			if states[k].Error {
				cls += " error"
			}
		}
		y := laneY(e.State)
		fmt.Fprintf(&b, "<rect class=\"%s\" x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" rx=\"3\" data-entry=\"%d\" data-at=\"%d\"><title>%s</title></rect>\n",
			cls, num(sc.x(e.At)), num(y+5), num(max(sc.x(until)-sc.x(e.At), 2)), num(laneH-10), i, e.At, text(describe(e)))
	}
	// Windows and waits, under the marks.
	for i, e := range es {
		y := laneY(e.State)
		switch e.Kind {
		case "open":
			cls := "window"
			until, met := windowEnd(es[i+1:], e)
			if met {
				cls += " met"
			}
			fmt.Fprintf(&b, "<rect class=\"%s\" x=\"%s\" y=\"%s\" width=\"%s\" height=\"6\" data-entry=\"%d\" data-at=\"%d\" data-until=\"%d\"><title>%s</title></rect>\n",
				cls, num(sc.x(e.At)), num(y+laneH-11), num(max(sc.x(until)-sc.x(e.At), 2)), i, e.At, e.Until, text(describe(e)))
		case "wait":
			x1, x2 := sc.x(e.At), sc.x(add(e.At, e.Wait))
			fmt.Fprintf(&b, "<line class=\"wait\" x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" data-entry=\"%d\" data-at=\"%d\"><title>%s</title></line>\n",
				num(x1), num(y+laneH-8), num(max(x2, x1+1)), num(y+laneH-8), i, e.At, text(describe(e)))
		}
	}
	// The marks. Entries at one instant on one lane are set side by side.
	type spot struct {
		lane string
		x    int
	}
	taken := map[spot]int{}
	for i, e := range es {
		m, ok := marks[e.Kind]
		if !ok {
			m.kind, m.class = markTick, "other"
		}
		if m.kind == markNone {
			continue
		}
		y := laneY(e.State)
		if e.Kind == "start" {
			y = laneY("")
			if len(states) > 0 {
				y = top
			}
		}
		x := sc.x(e.At)
		sp := spot{e.State, int(x)}
		x += 5 * float64(taken[sp])
		taken[sp]++
		cy := y + laneH/2
		t := text(describe(e))
		fmt.Fprintf(&b, "<g class=\"entry kind-%s\" data-entry=\"%d\" data-at=\"%d\"><title>%s</title>", kindClass(e.Kind), i, e.At, t)
		switch m.kind {
		case markDot:
			fmt.Fprintf(&b, "<circle class=\"%s\" cx=\"%s\" cy=\"%s\" r=\"4.5\"/>", m.class, num(x), num(cy))
		case markCross:
			fmt.Fprintf(&b, "<path class=\"%s\" d=\"M%s %sl8 8m0-8l-8 8\" stroke-width=\"2.5\"/>", m.class+" cross", num(x-4), num(cy-4))
		case markRhomb:
			fmt.Fprintf(&b, "<path class=\"%s\" d=\"M%s %sl5 5l-5 5l-5-5z\"/>", m.class, num(x), num(cy-5))
		case markBar:
			fmt.Fprintf(&b, "<rect class=\"%s\" x=\"%s\" y=\"%s\" width=\"3\" height=\"14\"/>", m.class, num(x-1.5), num(cy-7))
		case markFlag:
			fmt.Fprintf(&b, "<path class=\"%s\" d=\"M%s %sv-12l7 3l-7 3\"/>", m.class, num(x), num(cy+6))
		case markEnd:
			fmt.Fprintf(&b, "<line class=\"%s\" x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\"/>", endClass(e, m.class), num(x), num(y+2), num(x), num(y+laneH-2))
		default:
			fmt.Fprintf(&b, "<line class=\"tick-mark %s\" x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\"/>", m.class, num(x), num(cy-6), num(x), num(cy+6))
		}
		b.WriteString("</g>\n")
	}
	y := axisY + 24
	if cut > 0 {
		fmt.Fprintf(&b, "<text class=\"sub\" x=\"%s\" y=\"%s\">… and %d more entries, not drawn</text>\n", num(margin), num(y+fontSize-4), cut)
		y += lineH
	}
	fmt.Fprintf(&b, "<text class=\"sub legend\" x=\"%s\" y=\"%s\">● event  ✕ rejected or failed  ◆ slot taken  ▮ attempt  ⚑ met, done or given up  ▬ window  ─ wait  │ end</text>\n", num(margin), num(y+fontSize-4))
	y += lineH + 8
	var out strings.Builder
	open(&out, opt.Options, "run", width, y, "Run timeline of "+tr.Workflow, runTitle(tr, len(tr.Entries)))
	out.WriteString(b.String())
	out.WriteString("</svg>\n")
	_, err := io.WriteString(w, out.String())
	return err
}

// windowEnd says where the window opened by e is drawn to: its end, or
// sooner when it is met (met reports it) or the run leaves the state.
func windowEnd(rest []entry, e entry) (until int64, met bool) {
	for _, f := range rest {
		if f.At > e.Until {
			break
		}
		switch {
		case f.Kind == "met" && f.Name == e.Name && f.Milestone == e.Milestone:
			return f.At, true
		case f.Kind == "enter", f.Kind == "end", f.Kind == "stopped":
			return f.At, false
		}
	}
	return e.Until, false
}

func endClass(e entry, class string) string {
	if e.Error && !strings.Contains(class, "error") {
		return class + " error"
	}
	return class
}

// kindClass is a kind as a class name: the documented kinds are letters
// and `-`; anything else (a newer engine's kind) becomes "other".
func kindClass(k string) string {
	for _, c := range k {
		if !(c >= 'a' && c <= 'z' || c == '-') {
			return "other"
		}
	}
	if k == "" {
		return "other"
	}
	return k
}

func runTitle(tr transcript, n int) string {
	what := "entries"
	if n == 1 {
		what = "entry"
	}
	return fmt.Sprintf("run of %s: %d %s", tr.Workflow, n, what)
}

// describe says an entry in words, as the transcript line does.
func describe(e entry) string {
	at := timespan.Format(e.At)
	ms := e.Name + "." + e.Milestone
	var s string
	switch e.Kind {
	case "start":
		s = "start " + e.State
	case "enter":
		s = "enter " + e.State
	case "track":
		s = "track " + e.Field + " = " + e.Member
	case "accept":
		s = "accept " + e.Name + "(" + strings.Join(e.Args, ", ") + ")"
	case "reject":
		s = "reject " + e.Name + ": " + e.Reason
	case "take":
		s = "take " + e.Name
	case "open":
		s = fmt.Sprintf("open %s window %d of %d, until %s", ms, e.N, e.Of, timespan.Format(e.Until))
	case "pass":
		s = fmt.Sprintf("pass %s window %d of %d", ms, e.N, e.Of)
	case "met":
		if e.InWait {
			s = fmt.Sprintf("met %s during the wait after window %d", ms, e.N)
		} else {
			s = fmt.Sprintf("met %s in window %d", ms, e.N)
		}
	case "wait":
		if e.Milestone != "" {
			s = fmt.Sprintf("wait %s %s before window %d", ms, timespan.Format(e.Wait), e.N)
		} else {
			s = fmt.Sprintf("wait %q %s before attempt %d", e.Name, timespan.Format(e.Wait), e.N)
		}
	case "exhausted":
		s = "exhausted " + ms
	case "outcome":
		s = "outcome " + ms + " " + e.Outcome
	case "attempt":
		s = fmt.Sprintf("attempt %q %d of %d", e.Name, e.N, e.Of)
	case "fail":
		s = fmt.Sprintf("fail %q attempt %d", e.Name, e.N)
	case "done":
		s = fmt.Sprintf("done %q at attempt %d", e.Name, e.N)
	case "give-up":
		s = fmt.Sprintf("give-up %q after %d attempts", e.Name, e.N)
	case "call":
		s = "call " + e.Name + "(" + strings.Join(e.Args, ", ") + ")"
	case "end":
		if e.Error {
			s = fmt.Sprintf("end %s error %q", e.State, e.Message)
		} else {
			s = "end " + e.State + " ok"
		}
	case "waiting":
		s = "waiting in " + e.State
	case "stopped":
		s = "stopped: " + e.Message
	default:
		s = e.Kind + " " + e.Name + " " + e.Message
	}
	s = at + " " + strings.TrimSpace(s)
	if e.Held {
		s += " (due at " + timespan.Format(e.Due) + ")"
	}
	return s
}

// StatesOf lists a workflow's states as a run timeline's lanes, in source
// order (nil for nil).
func StatesOf(wf *check.Workflow) []State {
	if wf == nil {
		return nil
	}
	var out []State
	for _, s := range wf.States {
		if s.Decl.Name == nil {
			continue
		}
		out = append(out, State{Name: s.Decl.Name.Name, Terminal: s.Kind != ast.Normal, Error: s.Kind == ast.TerminalError})
	}
	return out
}
