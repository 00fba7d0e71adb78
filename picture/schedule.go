package picture

import (
	"fmt"
	"io"
	"strings"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/check/timespan"
	"github.com/wfc-lang/wfc/codegen"
)

// The schedule timeline's geometry.
const (
	schedWidth = 760.0 // the least width of a schedule picture
	margin     = 16.0
	trackH     = 14.0 // the height of an attempt's mark
	// maxMarks bounds the attempts drawn one by one per consumer; the rest
	// of a long budget is one band, labelled with its attempts, so
	// `.MaxAttempts(2147483647)` draws as fast as `.MaxAttempts(10)`.
	maxMarks = 60
	// minMark is the least width of an attempt's mark, so an attempt that
	// takes no time (a step's, without --attempt-duration) still shows.
	minMark = 3.0
)

// mark is one attempt as drawn: its nominal start and end, and with
// jitter its earliest and latest start.
type mark struct {
	k                 int64
	start, end        Ticks
	early, late       Ticks
	wait, least, most Ticks // the wait before it (nominal, least, most)
	capped            bool  // its wait is the policy's cap
}

// Ticks are 100 ns units.
type Ticks = timespan.Ticks

// attempts lists the first attempts of s (at most maxMarks) with their
// starts. The nominal start of attempt k is the one before it, plus its
// duration, plus the nominal wait; the earliest and latest are the table's
// (Row.Starts and Row.StartsLatest) carried on the same way with the least
// and most waits, so a jitter-free table's marks sit exactly at its
// `starts` column.
func attempts(s *codegen.Schedule) []mark {
	var out []mark
	var prev mark
	for _, r := range s.Rows {
		for k := r.From; k <= r.To && len(out) < maxMarks; k++ {
			m := mark{k: k}
			if k == 1 {
				m.start, m.early, m.late = r.Starts, r.Starts, r.StartsLatest
			} else {
				m.wait, m.least, m.most = r.Wait, r.Min, r.Max
				m.capped = s.HasCap && r.Wait == s.Cap && s.Shape != check.ShapeFixed
				if k == r.From {
					m.early, m.late = r.Starts, r.StartsLatest
				} else {
					m.early = add(prev.early, add(s.Duration, r.Min))
					m.late = add(prev.late, add(s.Duration, r.Max))
				}
				m.start = add(prev.start, add(s.Duration, r.Wait))
				if s.Jitter == nil {
					m.start = m.early // the table's own number
				}
			}
			m.end = add(m.start, s.Duration)
			out = append(out, m)
			prev = m
		}
	}
	return out
}

func add(a, b Ticks) Ticks {
	if a > timespan.MaxTicks-b {
		return timespan.MaxTicks
	}
	return a + b
}

// scale maps the time from 0 to span onto x from x0 to x1.
type scale struct {
	x0, x1 float64
	span   Ticks
}

func (sc scale) x(t Ticks) float64 {
	if sc.span <= 0 {
		return sc.x0
	}
	return sc.x0 + float64(t)/float64(sc.span)*(sc.x1-sc.x0)
}

// Schedules draws the schedule timeline of each table, one under another:
// each attempt (a milestone's window, a step's attempt) as a mark at its
// start, the wait before it as a line (dashed where the cap holds it), the
// jitter band from the earliest to the latest start, the concrete timeline
// of --draws or --seed as dots, and where the consumer gives up. The time
// axis is linear from 0 to the latest give-up, so the marks' positions are
// proportional to the table's offsets.
func Schedules(w io.Writer, ss []*codegen.Schedule, opt Options) error {
	width := schedWidth
	for _, s := range ss {
		width = max(width, width0(s))
	}
	var body strings.Builder
	y := margin
	for i, s := range ss {
		y = drawSchedule(&body, s, i, width, y)
	}
	if len(ss) == 0 {
		fmt.Fprintf(&body, "<text x=\"%s\" y=\"%s\" class=\"sub\">no milestone or durable step: nothing to schedule</text>\n", num(margin), num(y+fontSize))
		y += lineH + margin
	}
	var out strings.Builder
	desc := fmt.Sprintf("%d schedule timelines", len(ss))
	if len(ss) == 1 {
		desc = "1 schedule timeline"
	}
	open(&out, opt, "schedule", width, y, "Schedule timelines", desc+": each attempt at its start, the waits between them and where the consumer gives up")
	out.WriteString(body.String())
	out.WriteString("</svg>\n")
	_, err := io.WriteString(w, out.String())
	return err
}

// width0 is the width a consumer's title needs.
func width0(s *codegen.Schedule) float64 {
	return 2*margin + max(textWidth(title(s)), textWidth(words(s)))
}

// words says the policy, the budget and what an attempt takes.
func words(s *codegen.Schedule) string {
	w := codegen.PolicyWords(s) + " · " + codegen.BudgetWords(s)
	if !s.Consumer.IsStep() {
		w += " · window " + timespan.Format(s.Window)
	} else if s.Duration > 0 {
		w += " · each attempt takes " + timespan.Format(s.Duration)
	}
	return w
}

func title(s *codegen.Schedule) string {
	c := s.Consumer
	return fmt.Sprintf("%s  (%s:%d:%d)", codegen.Place(c), c.FileName(), c.Pos.Line, c.Pos.Column)
}

// drawSchedule draws table s (the i-th) from y down and returns the y below it.
func drawSchedule(b *strings.Builder, s *codegen.Schedule, i int, width, y float64) float64 {
	c := s.Consumer
	kind := "milestone"
	if c.IsStep() {
		kind = "step"
	}
	fmt.Fprintf(b, "<g class=\"timeline %s\" data-index=\"%d\" data-file=\"%s\" data-line=\"%d\" data-column=\"%d\" data-attempts=\"%d\" data-gives-up=\"%d\" data-gives-up-latest=\"%d\">\n",
		kind, i, text(c.FileName()), c.Pos.Line, c.Pos.Column, s.Attempts, s.GivesUp, s.GivesUpLatest)
	fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\" class=\"head\">%s</text>\n", num(margin), num(y+fontSize), text(title(s)))
	y += lineH
	fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\" class=\"sub\">%s</text>\n", num(margin), num(y+fontSize), text(words(s)))
	y += lineH + 18 // room for the attempt numbers above the marks

	marks := attempts(s)
	span := max(s.GivesUpLatest, s.GivesUp)
	for _, t := range s.Timeline {
		span = max(span, add(t, s.Duration))
	}
	sc := scale{x0: margin + 4, x1: width - margin - 4, span: span}
	top := y
	// The axis and its ticks under the track.
	axisY := top + trackH + 8
	fmt.Fprintf(b, "<line class=\"axis\" x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\"/>\n", num(sc.x0), num(axisY), num(sc.x1), num(axisY))
	for _, t := range ticks(span) {
		x := sc.x(t)
		fmt.Fprintf(b, "<line class=\"grid\" x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\"/>\n", num(x), num(top-4), num(x), num(axisY+3))
		anchor := "middle"
		if t == 0 {
			anchor = "start"
		}
		fmt.Fprintf(b, "<text class=\"tick\" x=\"%s\" y=\"%s\" text-anchor=\"%s\">%s</text>\n", num(x), num(axisY+15), anchor, timespan.Format(t))
	}
	// Jitter bands first, under the marks.
	if s.Jitter != nil {
		for _, m := range marks {
			if m.late > m.early {
				fmt.Fprintf(b, "<rect class=\"jitter\" x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\"><title>attempt %d starts between %s and %s</title></rect>\n",
					num(sc.x(m.early)), num(top-2), num(max(sc.x(m.late)-sc.x(m.early), 1)), num(trackH+4), m.k, timespan.Format(m.early), timespan.Format(m.late))
			}
		}
	}
	// The waits: from the end of one attempt to the start of the next.
	for j := 1; j < len(marks); j++ {
		m, p := marks[j], marks[j-1]
		x1, x2 := sc.x(p.end), sc.x(m.start)
		if x2-x1 < 1 {
			continue
		}
		cls := "wait"
		if m.capped {
			cls += " capped"
		}
		mid := top + trackH/2
		fmt.Fprintf(b, "<line class=\"%s\" x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" data-attempt=\"%d\" data-wait=\"%d\"><title>%s</title></line>\n",
			cls, num(x1), num(mid), num(x2), num(mid), m.k, m.wait, waitTitle(s, m))
		if label := timespan.Format(m.wait); x2-x1 > textWidth(label)+6 {
			fmt.Fprintf(b, "<text class=\"sub wait-label\" x=\"%s\" y=\"%s\" text-anchor=\"middle\">%s</text>\n", num((x1+x2)/2), num(mid-4), label)
		}
	}
	// The attempts.
	lastX := -100.0
	for j, m := range marks {
		x := sc.x(m.start)
		wd := max(sc.x(m.end)-x, minMark)
		cls := "attempt"
		if m.k == s.Attempts {
			cls += " last"
		}
		fmt.Fprintf(b, "<rect class=\"%s\" x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" rx=\"2\" data-attempt=\"%d\" data-start=\"%d\" data-end=\"%d\"><title>%s</title></rect>\n",
			cls, num(x), num(top), num(wd), num(trackH), m.k, m.start, m.end, attemptTitle(s, m))
		label := fmt.Sprint(m.k)
		if x-lastX > textWidth(label)+4 || j == len(marks)-1 && x-lastX > textWidth(label) {
			fmt.Fprintf(b, "<text class=\"sub attempt-label\" x=\"%s\" y=\"%s\">%s</text>\n", num(x), num(top-5), label)
			lastX = x
		}
	}
	// The attempts past the ones drawn: one band to the give-up.
	if n := int64(len(marks)); n < s.Attempts && n > 0 {
		from := marks[n-1].end
		fmt.Fprintf(b, "<rect class=\"more\" x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" data-from=\"%d\" data-to=\"%d\"><title>attempts %d–%d: %s</title></rect>\n",
			num(sc.x(from)), num(top+3), num(max(sc.x(s.GivesUp)-sc.x(from), 1)), num(trackH-6), n+1, s.Attempts, n+1, s.Attempts, moreWords(s, n))
	}
	// The concrete timeline of --draws or --seed: a dot per attempt.
	if len(s.Timeline) > 0 {
		for k, t := range s.Timeline {
			if k >= maxMarks {
				break
			}
			fmt.Fprintf(b, "<circle class=\"draw\" cx=\"%s\" cy=\"%s\" r=\"2.5\" data-attempt=\"%d\" data-start=\"%d\"><title>drawn: attempt %d starts at %s</title></circle>\n",
				num(sc.x(t)), num(top+trackH+3), k+1, t, k+1, timespan.Format(t))
		}
	}
	// Where it gives up.
	gx := sc.x(s.GivesUp)
	if s.GivesUpLatest > s.GivesUp {
		fmt.Fprintf(b, "<rect class=\"giveup-band\" x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\"/>\n", num(gx), num(top-6), num(sc.x(s.GivesUpLatest)-gx), num(trackH+12))
	}
	fmt.Fprintf(b, "<line class=\"giveup\" x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" data-at=\"%d\"><title>%s</title></line>\n",
		num(gx), num(top-8), num(gx), num(top+trackH+6), s.GivesUp, giveUpWords(s))
	y = axisY + 22
	fmt.Fprintf(b, "<text class=\"giveup-label\" x=\"%s\" y=\"%s\">%s</text>\n", num(margin), num(y+fontSize-4), giveUpWords(s))
	y += lineH + 14
	b.WriteString("</g>\n")
	return y
}

func attemptTitle(s *codegen.Schedule, m mark) string {
	what := "attempt"
	if !s.Consumer.IsStep() {
		what = "window"
	}
	t := fmt.Sprintf("%s %d of %d starts at %s", what, m.k, s.Attempts, timespan.Format(m.start))
	if s.Jitter != nil && m.late > m.early {
		t = fmt.Sprintf("%s %d of %d starts between %s and %s (%s nominally)", what, m.k, s.Attempts, timespan.Format(m.early), timespan.Format(m.late), timespan.Format(m.start))
	}
	if m.end > m.start {
		t += ", ends at " + timespan.Format(m.end)
	}
	return t
}

func waitTitle(s *codegen.Schedule, m mark) string {
	t := fmt.Sprintf("wait %s before attempt %d (retry %d)", timespan.Format(m.wait), m.k, m.k-1)
	if s.Jitter != nil {
		t += fmt.Sprintf(", %s to %s with jitter", timespan.Format(m.least), timespan.Format(m.most))
	}
	if m.capped {
		t += ", held at the cap"
	}
	return t
}

func moreWords(s *codegen.Schedule, n int64) string {
	w := fmt.Sprintf("%d more attempts", s.Attempts-n)
	if last := s.WaitBefore(s.Attempts); last > 0 {
		w += fmt.Sprintf(", the last after a wait of %s", timespan.Format(last))
	}
	return w
}

func giveUpWords(s *codegen.Schedule) string {
	if s.GivesUpLatest > s.GivesUp {
		return fmt.Sprintf("gives up after %d attempts, at %s, %s at the latest", s.Attempts, timespan.Format(s.GivesUp), timespan.Format(s.GivesUpLatest))
	}
	if s.Attempts == 1 {
		return fmt.Sprintf("gives up after 1 attempt, at %s", timespan.Format(s.GivesUp))
	}
	return fmt.Sprintf("gives up after %d attempts, at %s", s.Attempts, timespan.Format(s.GivesUp))
}

// steps are the candidate distances between two ticks of an axis.
var steps = func() []Ticks {
	const (
		ms  = timespan.TicksPerMillisecond
		sec = timespan.TicksPerSecond
		min = timespan.TicksPerMinute
		hr  = timespan.TicksPerHour
		day = timespan.TicksPerDay
	)
	out := []Ticks{1, 10, 100, 1000, ms, 2 * ms, 5 * ms, 10 * ms, 20 * ms, 50 * ms, 100 * ms, 200 * ms, 500 * ms,
		sec, 2 * sec, 5 * sec, 10 * sec, 15 * sec, 30 * sec, min, 2 * min, 5 * min, 10 * min, 15 * min, 30 * min,
		hr, 2 * hr, 3 * hr, 6 * hr, 12 * hr, day, 2 * day, 7 * day, 14 * day, 30 * day, 90 * day, 365 * day}
	for t := 365 * day; t < timespan.MaxTicks/10; {
		t *= 10
		out = append(out, t)
	}
	return out
}()

// ticks returns the axis's tick times from 0 to span: the smallest step
// that gives at most eight intervals.
func ticks(span Ticks) []Ticks {
	if span <= 0 {
		return []Ticks{0}
	}
	step := steps[len(steps)-1]
	for _, s := range steps {
		if span/s <= 8 {
			step = s
			break
		}
	}
	var out []Ticks
	for t := Ticks(0); t <= span; t += step {
		out = append(out, t)
		if t > timespan.MaxTicks-step {
			break
		}
	}
	return out
}
