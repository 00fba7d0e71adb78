package temporal

import (
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/diag"
)

// protoDuration writes d as the protobuf JSON form of a Duration: seconds
// with 0, 3, 6 or 9 fractional digits and the suffix "s".
func protoDuration(d time.Duration) string {
	sec, ns := int64(d/time.Second), int64(d%time.Second)
	s := strconv.FormatInt(sec, 10)
	if ns == 0 {
		return s + "s"
	}
	frac := strconv.FormatInt(ns+1e9, 10)[1:] // nine digits
	for _, cut := range []int{3, 6} {
		if strings.TrimRight(frac[cut:], "0") == "" {
			frac = frac[:cut]
			break
		}
	}
	return s + "." + frac + "s"
}

// jsonRetryPolicy is RetryPolicy in the API's JSON form. Fields left at
// their zero value are unset (a step that is not retried sets only
// maximumAttempts).
type jsonRetryPolicy struct {
	InitialInterval        string   `json:"initialInterval,omitempty"`
	BackoffCoefficient     float64  `json:"backoffCoefficient,omitempty"`
	MaximumInterval        string   `json:"maximumInterval,omitempty"`
	MaximumAttempts        int32    `json:"maximumAttempts"`
	NonRetryableErrorTypes []string `json:"nonRetryableErrorTypes,omitempty"`
}

// MarshalJSON writes the policy in the form Temporal's API reads.
func (p RetryPolicy) MarshalJSON() ([]byte, error) {
	j := jsonRetryPolicy{BackoffCoefficient: p.BackoffCoefficient, MaximumAttempts: p.MaximumAttempts,
		NonRetryableErrorTypes: p.NonRetryableErrorTypes}
	if p.InitialInterval != 0 {
		j.InitialInterval = protoDuration(p.InitialInterval)
	}
	if p.MaximumInterval != 0 {
		j.MaximumInterval = protoDuration(p.MaximumInterval)
	}
	return json.Marshal(j)
}

// jsonWaits describes the waits the helper code runs (milestones, and a
// Linear step's NextRetryDelay).
type jsonWaits struct {
	Shape    string `json:"shape"`
	Interval string `json:"interval"`
	Cap      string `json:"cap,omitempty"`
}

type jsonWindows struct {
	Within   string    `json:"within"`
	Attempts int64     `json:"attempts"`
	Waits    jsonWaits `json:"waits"`
}

type jsonEntry struct {
	File        string       `json:"file"`
	Line        int32        `json:"line"`
	Column      int32        `json:"column"`
	Workflow    string       `json:"workflow"`
	State       string       `json:"state"`
	Slot        string       `json:"slot,omitempty"`
	Consumer    string       `json:"consumer"`
	Kind        string       `json:"kind"`
	Name        string       `json:"name,omitempty"`
	RetryPolicy *RetryPolicy `json:"retryPolicy,omitempty"`
	// StartToClose and ScheduleToClose are a step's `timeout:` and
	// `deadline:`, the activity's timeouts of those names.
	StartToClose    string       `json:"startToCloseTimeout,omitempty"`
	ScheduleToClose string       `json:"scheduleToCloseTimeout,omitempty"`
	NextRetryDelay  *jsonWaits   `json:"nextRetryDelay,omitempty"`
	Windows         *jsonWindows `json:"windows,omitempty"`
	Unsupported     []diag.ID    `json:"unsupported,omitempty"`
}

type jsonDoc struct {
	Version int         `json:"version"`
	Entries []jsonEntry `json:"entries"`
}

// ticksDuration formats ticks in the API's form, clamped to time.Duration
// (a longer wait is reported as WF404).
func ticksDuration(t Ticks) string {
	d, _ := Duration(t)
	return protoDuration(d)
}

func (w Waits) json() jsonWaits {
	j := jsonWaits{Shape: w.Shape.String(), Interval: ticksDuration(w.Interval)}
	if w.HasCap {
		j.Cap = ticksDuration(w.Cap)
	}
	return j
}

// WriteJSON writes the `wfc export temporal` document: one entry per
// consumer, in source order. Steps carry retryPolicy (and, for Linear,
// the nextRetryDelay the activity must return); milestones carry the
// windows that workflow code runs.
func WriteJSON(w io.Writer, es []*Entry) error {
	doc := jsonDoc{Version: 1, Entries: make([]jsonEntry, 0, len(es))}
	for _, e := range es {
		c := e.Schedule.Consumer
		je := jsonEntry{File: c.FileName(), Line: c.Pos.Line, Column: c.Pos.Column,
			Workflow: c.WorkflowName(), State: c.StateName(), Slot: c.Slot(), Consumer: "milestone",
			Kind: c.Kind.String(), Name: c.StepName(), RetryPolicy: e.RetryPolicy, Unsupported: e.Unsupported}
		if e.Step {
			je.Consumer = "step"
			if e.StartToCloseTimeout > 0 {
				je.StartToClose = protoDuration(e.StartToCloseTimeout)
			}
			if e.ScheduleToCloseTimeout > 0 {
				je.ScheduleToClose = protoDuration(e.ScheduleToCloseTimeout)
			}
			if e.NextRetryDelay {
				nd := e.Waits.json()
				je.NextRetryDelay = &nd
			}
		} else {
			je.Windows = &jsonWindows{Within: ticksDuration(e.Window), Attempts: e.Attempts, Waits: e.Waits.json()}
			if e.Waits.Shape == check.ShapeNone {
				je.Windows.Waits.Interval = "0s"
			}
		}
		doc.Entries = append(doc.Entries, je)
	}
	enc := json.NewEncoder(diag.SafeJSON(w)) // step and file names are input
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}
