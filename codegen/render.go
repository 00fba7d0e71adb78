package codegen

import (
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"strings"
	"text/tabwriter"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/diag"
)

// ms converts ticks to integer milliseconds, rounded to nearest.
func ms(t Ticks) int64 {
	q, r := t/check.TicksPerMillisecond, t%check.TicksPerMillisecond
	if r*2 >= check.TicksPerMillisecond {
		q++
	}
	return q
}

type jsonDoc struct {
	Version       int                 `json:"version"`
	Schedules     []jsonSchedule      `json:"schedules"`
	Notifications []diag.Notification `json:"notifications,omitempty"`
}

type jsonPolicy struct {
	Shape      string  `json:"shape"`
	IntervalMS int64   `json:"interval_ms"`
	CapMS      *int64  `json:"cap_ms"`
	Jitter     float64 `json:"jitter"`
}

type jsonRow struct {
	From           int64 `json:"from"`
	To             int64 `json:"to"`
	WaitMS         int64 `json:"wait_ms"`
	MinMS          int64 `json:"min_ms"`
	MaxMS          int64 `json:"max_ms"`
	StartsMS       int64 `json:"starts_ms"`
	StartsLatestMS int64 `json:"starts_latest_ms"`
}

type jsonSchedule struct {
	File            string     `json:"file"`
	Line            int32      `json:"line"`
	Column          int32      `json:"column"`
	Workflow        string     `json:"workflow"`
	State           string     `json:"state"`
	Slot            string     `json:"slot"`
	Consumer        string     `json:"consumer"`
	Kind            string     `json:"kind"`
	Name            string     `json:"name"`
	Policy          jsonPolicy `json:"policy"`
	Attempts        int64      `json:"attempts"`
	Budget          string     `json:"budget"`
	WindowMS        *int64     `json:"window_ms"`
	TimeoutMS       *int64     `json:"timeout_ms,omitempty"`
	DeadlineMS      *int64     `json:"deadline_ms,omitempty"`
	DeadlineCut     int64      `json:"deadline_cut,omitempty"`
	Stop            *jsonStop  `json:"stop,omitempty"`
	Rows            []jsonRow  `json:"rows"`
	Truncated       bool       `json:"truncated,omitempty"`
	GivesUpMS       int64      `json:"gives_up_ms"`
	GivesUpLatestMS int64      `json:"gives_up_latest_ms"`
	TimelineMS      []int64    `json:"timeline_ms,omitempty"`
}

type jsonStop struct {
	Attempt int64 `json:"attempt"`
	Ends    bool  `json:"ends"`
	AtMS    int64 `json:"at_ms"`
}

func jitterFloat(j *big.Rat) float64 {
	if j == nil {
		return 0
	}
	f, _ := j.Float64()
	return f
}

// WriteJSON writes the `wfc schedule --format json` document (docs/language.md, "The schedule table").
func WriteJSON(w io.Writer, ss []*Schedule) error {
	return WriteJSONNotes(w, ss, nil)
}

// WriteJSONNotes writes the schedule document with the run's notifications
// (paths that could not be read), present only when there are some, as in
// the diagnostics document.
func WriteJSONNotes(w io.Writer, ss []*Schedule, notes []diag.Notification) error {
	doc := jsonDoc{Version: 1, Schedules: make([]jsonSchedule, 0, len(ss)), Notifications: notes}
	for _, s := range ss {
		c := s.Consumer
		js := jsonSchedule{
			File: c.FileName(), Line: c.Pos.Line, Column: c.Pos.Column,
			Workflow: c.WorkflowName(), State: c.StateName(), Slot: c.Slot(),
			Consumer: "milestone", Kind: c.Kind.String(), Name: c.StepName(),
			Policy:   jsonPolicy{Shape: s.Shape.String(), IntervalMS: ms(s.Interval), Jitter: jitterFloat(s.Jitter)},
			Attempts: s.Attempts, Budget: s.Budget.String(), Truncated: s.Truncated,
			GivesUpMS: ms(s.GivesUp), GivesUpLatestMS: ms(s.GivesUpLatest),
		}
		if c.IsStep() {
			js.Consumer = "step"
		} else {
			w := ms(s.Window)
			js.WindowMS = &w
		}
		if s.HasCap {
			cp := ms(s.Cap)
			js.Policy.CapMS = &cp
		}
		if s.Timeout > 0 {
			t := ms(s.Timeout)
			js.TimeoutMS = &t
		}
		if s.HasDeadline {
			d := ms(s.Deadline)
			js.DeadlineMS, js.DeadlineCut = &d, s.DeadlineCut
		}
		if st := s.Stop; st != nil {
			js.Stop = &jsonStop{Attempt: st.Attempt, Ends: st.Ends, AtMS: ms(st.At)}
		}
		for _, r := range s.Rows {
			js.Rows = append(js.Rows, jsonRow{From: r.From, To: r.To, WaitMS: ms(r.Wait), MinMS: ms(r.Min), MaxMS: ms(r.Max),
				StartsMS: ms(r.Starts), StartsLatestMS: ms(r.StartsLatest)})
		}
		for _, t := range s.Timeline {
			js.TimelineMS = append(js.TimelineMS, ms(t))
		}
		doc.Schedules = append(doc.Schedules, js)
	}
	enc := json.NewEncoder(diag.SafeJSON(w)) // step names are input
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}

// Place names a consumer: `JobFlow › Running › Worker › Finished`, or
// `Fulfilment › Placed › Workflow.Once("capture-payment")` for a step.
func Place(c *check.Consumer) string {
	if c.IsStep() {
		return fmt.Sprintf("%s › %s › Workflow.Once(%q)", c.WorkflowName(), c.StateName(), c.StepName())
	}
	return fmt.Sprintf("%s › %s › %s › %s", c.WorkflowName(), c.StateName(), c.Slot(), c.Kind)
}

// PolicyWords says a policy in words.
func PolicyWords(s *Schedule) string {
	f := check.FormatTicks
	var b strings.Builder
	switch s.Shape {
	case check.ShapeNone:
		if s.Consumer.IsStep() {
			return "none: a failed step is not retried"
		}
		return "none: the next window opens as soon as one passes"
	case check.ShapeFixed:
		fmt.Fprintf(&b, "fixed: %s before every retry", f(s.Interval))
	case check.ShapeLinear:
		fmt.Fprintf(&b, "linear: %s, %s, %s … (%s more each retry)", f(s.Interval), f(satMul(s.Interval, 2)), f(satMul(s.Interval, 3)), f(s.Interval))
	case check.ShapeExponential:
		fmt.Fprintf(&b, "exponential: %s, %s, %s … (doubling each retry)", f(s.Interval), f(satMul(s.Interval, 2)), f(satMul(s.Interval, 4)))
	case check.ShapeEvery:
		fmt.Fprintf(&b, "every: an attempt every %s, start to start (the wait is what is left of it after an attempt)", f(s.Interval))
	}
	if s.HasCap {
		fmt.Fprintf(&b, ", capped at %s", f(s.Cap))
	}
	if s.Jitter != nil {
		fmt.Fprintf(&b, ", jitter ±%s", pct(s.Jitter))
	}
	return b.String()
}

func satMul(t Ticks, k int64) Ticks {
	if t != 0 && k != 0 && t > check.MaxTicks/k {
		return check.MaxTicks
	}
	return t * k
}

// BudgetWords counts the attempts both ways, and says where the budget came from.
func BudgetWords(s *Schedule) string {
	n := s.Attempts
	w := check.CountAttempts(n, "the first")
	switch {
	case s.Budget == check.BudgetRetries:
		w += fmt.Sprintf(" (`Retries = %d`)", n-1)
	case s.Budget == check.BudgetMaxAttempts && s.DeadlineCut > 0:
		w += fmt.Sprintf(" (`.MaxAttempts(%d)`, cut by the deadline)", s.Consumer.Attempts)
	case s.Budget == check.BudgetMaxAttempts:
		w += fmt.Sprintf(" (`.MaxAttempts(%d)`)", n)
	case s.Budget == check.BudgetDeadline:
		w += " (those that start within the `deadline:`)"
	}
	return w
}

// deadlineWords says where a step's deadline cuts its table.
func deadlineWords(s *Schedule) string {
	switch {
	case s.DeadlineCut > 0:
		return fmt.Sprintf("; attempt %d would start after it: the step gives up (`Deadline`)", s.DeadlineCut)
	case s.Budget == check.BudgetDeadline:
		return fmt.Sprintf("; attempt %d would start after it: the step gives up (`Deadline`)", s.Attempts+1)
	}
	return ""
}

// StopWords says where and why a run leaves TimeSpan's range: "attempt 3
// would start after TimeSpan.MaxValue: the run stops at 10675199d".
func StopWords(s *Schedule) string {
	st := s.Stop
	what := "attempt"
	if !s.Consumer.IsStep() {
		what = "window"
	}
	if st.Ends {
		return fmt.Sprintf("%s %d would end after TimeSpan.MaxValue: the run stops when it starts, at %s", what, st.Attempt, check.FormatTicks(st.At))
	}
	return fmt.Sprintf("%s %d would start after TimeSpan.MaxValue: the run stops at %s", what, st.Attempt, check.FormatTicks(st.At))
}

// startRange says when a row's attempts start: "13m30s" for one attempt,
// "13m30s … 23m30s" (its first and its last) for a merged row, whose
// attempts follow one another every step (an attempt and the row's wait).
func startRange(first Ticks, r Row, step Ticks) string {
	if r.To == r.From {
		return check.FormatTicks(first)
	}
	last := satAdd(first, satMul(step, r.To-r.From))
	return check.FormatTicks(first) + " … " + check.FormatTicks(last)
}

func satAdd(a, b Ticks) Ticks {
	if a > check.MaxTicks-b {
		return check.MaxTicks
	}
	return a + b
}

// roundMS rounds ticks to the millisecond for display (a drawn timeline is
// exact to 100 ns, which reads as noise); it never rounds past MaxTicks.
func roundMS(t Ticks) Ticks {
	r := t - t%check.TicksPerMillisecond
	if t%check.TicksPerMillisecond*2 >= check.TicksPerMillisecond && r <= check.MaxTicks-check.TicksPerMillisecond {
		r += check.TicksPerMillisecond
	}
	return r
}

// WriteText prints one aligned table per consumer.
func WriteText(w io.Writer, ss []*Schedule) error {
	var b strings.Builder
	for i, s := range ss {
		if i > 0 {
			b.WriteByte('\n')
		}
		c := s.Consumer
		fmt.Fprintf(&b, "%s  (%s:%d:%d)\n", diag.Escape(Place(c)), diag.Escape(c.FileName()), c.Pos.Line, c.Pos.Column)
		fmt.Fprintf(&b, "  policy    %s\n", PolicyWords(s))
		fmt.Fprintf(&b, "  budget    %s\n", BudgetWords(s))
		if c.IsStep() {
			if s.Duration > 0 {
				fmt.Fprintf(&b, "  attempt   takes %s\n", check.FormatTicks(s.Duration))
			}
			if s.Timeout > 0 {
				fmt.Fprintf(&b, "  timeout   %s per attempt: a longer one fails then\n", check.FormatTicks(s.Timeout))
			}
			if s.HasDeadline {
				fmt.Fprintf(&b, "  deadline  %s from the first attempt's start%s\n", check.FormatTicks(s.Deadline), deadlineWords(s))
			}
		} else {
			fmt.Fprintf(&b, "  window    %s each; the wait starts when a window passes\n", check.FormatTicks(s.Window))
		}
		jit := s.Jitter != nil
		if err := writeRows(&b, s); err != nil {
			return err
		}
		if s.Truncated {
			last := s.Rows[len(s.Rows)-1].To
			fmt.Fprintf(&b, "  … attempts %d–%d each wait longer (the table stops at %d rows)\n", last+1, s.Attempts, MaxRows)
		}
		if st := s.Stop; st != nil {
			fmt.Fprintf(&b, "  stops     %s\n", StopWords(s))
		} else if jit && s.GivesUpLatest != s.GivesUp {
			fmt.Fprintf(&b, "  gives up  at %s, %s at the latest\n", check.FormatTicks(s.GivesUp), check.FormatTicks(s.GivesUpLatest))
		} else {
			fmt.Fprintf(&b, "  gives up  at %s\n", check.FormatTicks(s.GivesUp))
		}
		if s.Timeline != nil {
			var parts []string
			for k, t := range s.Timeline {
				if k == 20 {
					parts = append(parts, fmt.Sprintf("… (%d attempts)", len(s.Timeline)))
					break
				}
				parts = append(parts, check.FormatTicks(roundMS(t)))
			}
			fmt.Fprintf(&b, "  timeline  %s\n", strings.Join(parts, ", "))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeRows prints a schedule's aligned table of attempts.
func writeRows(b *strings.Builder, s *Schedule) error {
	jit := s.Jitter != nil
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	if jit {
		fmt.Fprintln(tw, "  attempt\twait\tleast\tmost\tstarts\tlatest")
	} else {
		fmt.Fprintln(tw, "  attempt\twait\tstarts")
	}
	for _, r := range s.Rows {
		att := fmt.Sprint(r.From)
		if r.To > r.From {
			att = fmt.Sprintf("%d–%d", r.From, r.To)
		}
		wait := check.FormatTicks(r.Wait)
		if r.From == 1 {
			wait = "–"
		}
		if jit {
			lo, hi := check.FormatTicks(r.Min), check.FormatTicks(r.Max)
			if r.From == 1 {
				lo, hi = "–", "–"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\n", att, wait, lo, hi,
				startRange(r.Starts, r, satAdd(s.Duration, r.Min)), startRange(r.StartsLatest, r, satAdd(s.Duration, r.Max)))
		} else {
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", att, wait, startRange(r.Starts, r, satAdd(s.Duration, r.Wait)))
		}
	}
	return tw.Flush()
}
