package interp

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/check/timespan"
)

// Kind is what an Entry records.
type Kind uint8

// The kinds of entries, in the order a run usually writes them.
const (
	KStart     Kind = iota + 1 // the run starts
	KEnter                     // the run enters State
	KTrack                     // the tracked field is set to Member
	KAccept                    // the current state accepts event Name with Args
	KReject                    // an event or a slot (Name) is rejected for Reason
	KTake                      // slot Name is taken
	KOpen                      // window N of Of of slot Name's Milestone opens
	KPass                      // window N of Of passes unmet
	KMet                       // the Milestone is met in window N (InWait: in the wait after it)
	KWait                      // the run waits Wait before window N (or attempt N)
	KExhausted                 // the Milestone's last window passed: Exhausted runs
	KOutcome                   // the Milestone's Outcome block runs
	KAttempt                   // attempt N of Of of step Name starts
	KFail                      // attempt N of step Name fails
	KDone                      // step Name succeeds at attempt N
	KGiveUp                    // step Name gave up after N attempts
	KCall                      // an external call Name(Args)
	KEnd                       // the run ends: in a terminal State, or in error with Message
	KWaiting                   // the scenario is over and the run waits in State
	KStopped                   // the run was stopped at a limit (Message says which)
	KSkip                      // step Name is reached again: done already, or gave up already (Cause)
	KCancel                    // step Name (after N attempts), or a queued handler of event Name, is cancelled: Message says why
	KTimeout                   // attempt N of step Name ran longer than its timeout (Wait) and fails
)

var kindNames = [...]string{
	KStart: "start", KEnter: "enter", KTrack: "track", KAccept: "accept", KReject: "reject",
	KTake: "take", KOpen: "open", KPass: "pass", KMet: "met", KWait: "wait",
	KExhausted: "exhausted", KOutcome: "outcome", KAttempt: "attempt", KFail: "fail",
	KDone: "done", KGiveUp: "give-up", KCall: "call", KEnd: "end", KWaiting: "waiting",
	KStopped: "stopped", KSkip: "skip", KCancel: "cancel", KTimeout: "timeout",
}

// Kinds lists every entry kind, in the order of their constants.
func Kinds() []Kind {
	var out []Kind
	for k := range kindNames {
		if kindNames[k] != "" {
			out = append(out, Kind(k))
		}
	}
	return out
}

func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// MarshalText writes the kind's name, as the JSON transcript does.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a kind's name.
func (k *Kind) UnmarshalText(b []byte) error {
	for i, n := range kindNames {
		if n != "" && n == string(b) {
			*k = Kind(i)
			return nil
		}
	}
	return fmt.Errorf("unknown transcript entry kind %q", b)
}

// Reason says why an event or a slot was rejected.
type Reason uint8

// The reasons for a rejection.
const (
	NotStarted    Reason = iota + 1 // the run has not started
	Ended                           // the run has ended
	NotSubscribed                   // the current state does not subscribe to the event
	NoSlot                          // the current state has no such slot
	Taken                           // the slot is already taken in this visit
	Started                         // a start when the run has already started
)

var reasonNames = [...]string{
	NotStarted: "not-started", Ended: "ended", NotSubscribed: "not-subscribed",
	NoSlot: "no-slot", Taken: "taken", Started: "started",
}

func (r Reason) String() string {
	if int(r) < len(reasonNames) && reasonNames[r] != "" {
		return reasonNames[r]
	}
	return "reason(" + strconv.Itoa(int(r)) + ")"
}

// MarshalText writes the reason's name.
func (r Reason) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText reads a reason's name.
func (r *Reason) UnmarshalText(b []byte) error {
	for i, n := range reasonNames {
		if n != "" && n == string(b) {
			*r = Reason(i)
			return nil
		}
	}
	return fmt.Errorf("unknown rejection reason %q", b)
}

// Entry is one line of a transcript. Only the fields its Kind names are
// set. Entries are plain values (strings and numbers), so a transcript from
// another engine can be compared with == and cmp.Diff.
type Entry struct {
	At Ticks `json:"at"`
	// Due is when the thing fell due, when it was held while a step waited
	// (Held); otherwise it equals At.
	Due  Ticks `json:"due"`
	Kind Kind  `json:"kind"`
	Held bool  `json:"held,omitempty"`
	// InWait: met during the wait after window N.
	InWait bool `json:"in_wait,omitempty"`
	// Error says the run ended in error.
	Error  bool   `json:"error,omitempty"`
	Reason Reason `json:"reason,omitempty"`
	// Milestone is Assigned or Finished, with Name the slot.
	Milestone check.MilestoneKind `json:"milestone,omitempty"`
	// Outcome is Exhausted, Unfinished or Unassigned.
	Outcome check.OutcomeKind `json:"outcome,omitempty"`
	// N and Of: the window or attempt number and how many there are.
	N  int64 `json:"n,omitempty"`
	Of int64 `json:"of,omitempty"`
	// Wait is a wait's length, a timeout's limit, or a failure's
	// Retry-After; Until a window's end.
	Wait  Ticks `json:"wait,omitempty"`
	Until Ticks `json:"until,omitempty"`
	// RetryAfter: a failure carries the server's delay (Wait), or a wait
	// is that delay rather than the policy's.
	RetryAfter bool `json:"retry_after,omitempty"`
	// Queued: an accepted event's handler waits for the one still running
	// for its subscription (parked in a step) to finish.
	Queued bool `json:"queued,omitempty"`
	// Cause is why a step gave up (give-up, skip of a step that gave up,
	// cancel of a step).
	Cause check.Cause `json:"cause,omitempty"`
	// ErrorKind is a failure's error kind, `Enum.Member`.
	ErrorKind string `json:"error_kind,omitempty"`
	// State is the state entered, or the state the run is in.
	State string `json:"state,omitempty"`
	// Name is the event, slot, step name or call's dotted name.
	Name string   `json:"name,omitempty"`
	Args []string `json:"args,omitempty"`
	// Member is the tracked field's new value, Field its Entity.Field.
	Field  string `json:"field,omitempty"`
	Member string `json:"member,omitempty"`
	// Message is a terminal error's message, a step's give-up message or
	// the limit a stopped run hit.
	Message string `json:"message,omitempty"`
}

// Transcript is what one run did.
type Transcript struct {
	// Version is the transcript format's version, 3: times under named
	// fields (`at_ticks`…) and typed `arguments` (entryjson.go), with the
	// version-2 fields still written (2 had no skip, cancel or timeout
	// entries, causes, kinds or Retry-After before; 1 none of them).
	Version  int     `json:"version"`
	Workflow string  `json:"workflow"`
	Entries  []Entry `json:"entries"`
}

// End returns the entry that ended the run (KEnd or KStopped; what was
// sent after it is rejected and follows it) or, for a run still waiting
// when its scenario was over, the KWaiting entry; false for a run that never
// started.
func (t *Transcript) End() (Entry, bool) {
	for i := len(t.Entries) - 1; i >= 0; i-- {
		switch e := t.Entries[i]; e.Kind {
		case KEnd, KWaiting, KStopped:
			return e, true
		}
	}
	return Entry{}, false
}

// JSON writes the transcript as the document docs/schema/transcript.schema.json
// describes.
func (t *Transcript) JSON() ([]byte, error) { return json.MarshalIndent(t, "", "  ") }

// String renders the transcript as text, one entry per line: the time, the
// kind and what happened.
func (t *Transcript) String() string {
	var b strings.Builder
	for i := range t.Entries {
		b.WriteString(t.Entries[i].String())
		b.WriteByte('\n')
	}
	return b.String()
}

// String renders one entry as a line of text.
func (e Entry) String() string {
	var b strings.Builder
	at := timespan.Format(e.At)
	b.WriteString(at)
	for i := len(at); i < 10; i++ {
		b.WriteByte(' ')
	}
	b.WriteByte(' ')
	k := e.Kind.String()
	b.WriteString(k)
	for i := len(k); i < 9; i++ {
		b.WriteByte(' ')
	}
	b.WriteByte(' ')
	b.WriteString(e.text())
	if e.Held {
		b.WriteString(" (due at " + timespan.Format(e.Due) + ")")
	}
	return strings.TrimRight(b.String(), " ")
}

func (e Entry) milestone() string { return e.Name + "." + e.Milestone.String() }

func (e Entry) text() string {
	switch e.Kind {
	case KStart:
		return e.State
	case KEnter:
		return e.State
	case KTrack:
		return e.Field + " = " + e.Member
	case KAccept:
		if e.Queued {
			return e.Name + "(" + strings.Join(e.Args, ", ") + ") (handler queued)"
		}
		return e.Name + "(" + strings.Join(e.Args, ", ") + ")"
	case KReject:
		return e.Name + ": " + e.reasonText()
	case KTake:
		return e.Name
	case KOpen:
		return fmt.Sprintf("%s window %d of %d, until %s", e.milestone(), e.N, e.Of, timespan.Format(e.Until))
	case KPass:
		return fmt.Sprintf("%s window %d of %d", e.milestone(), e.N, e.Of)
	case KMet:
		if e.InWait {
			return fmt.Sprintf("%s during the wait after window %d", e.milestone(), e.N)
		}
		return fmt.Sprintf("%s in window %d", e.milestone(), e.N)
	case KWait:
		if e.Milestone != 0 {
			return fmt.Sprintf("%s %s before window %d", e.milestone(), timespan.Format(e.Wait), e.N)
		}
		if e.RetryAfter {
			return fmt.Sprintf("%q %s before attempt %d (Retry-After)", e.Name, timespan.Format(e.Wait), e.N)
		}
		return fmt.Sprintf("%q %s before attempt %d", e.Name, timespan.Format(e.Wait), e.N)
	case KExhausted:
		return e.milestone()
	case KOutcome:
		return e.milestone() + " " + e.Outcome.String()
	case KAttempt:
		if e.Of == 0 {
			return fmt.Sprintf("%q %d", e.Name, e.N)
		}
		return fmt.Sprintf("%q %d of %d", e.Name, e.N, e.Of)
	case KFail:
		s := fmt.Sprintf("%q attempt %d", e.Name, e.N)
		if e.ErrorKind != "" {
			s += " (" + e.ErrorKind + ")"
		}
		if e.RetryAfter {
			s += ", Retry-After " + timespan.Format(e.Wait)
		}
		return s
	case KTimeout:
		return fmt.Sprintf("%q attempt %d after %s", e.Name, e.N, timespan.Format(e.Wait))
	case KDone:
		return fmt.Sprintf("%q at attempt %d", e.Name, e.N)
	case KGiveUp:
		return fmt.Sprintf("%q after %s (%s)", e.Name, Attempts(e.N), e.causeText())
	case KSkip:
		if e.Cause != 0 {
			return fmt.Sprintf("%q gave up already (%s)", e.Name, e.causeText())
		}
		return fmt.Sprintf("%q done already", e.Name)
	case KCancel:
		if e.Cause != 0 {
			return fmt.Sprintf("%q after %s: %s", e.Name, Attempts(e.N), e.Message)
		}
		return fmt.Sprintf("handler of %s(%s): %s", e.Name, strings.Join(e.Args, ", "), e.Message)
	case KCall:
		return e.Name + "(" + strings.Join(e.Args, ", ") + ")"
	case KEnd:
		if e.Error {
			return e.State + " error " + strconv.Quote(e.Message)
		}
		return e.State + " ok"
	case KWaiting:
		return e.State
	case KStopped:
		return e.Message
	}
	return ""
}

// causeText is a give-up's cause as a catch names it, with the error
// kind of a terminal failure: "Exhausted", "Terminal, ChargeError.Declined".
func (e Entry) causeText() string {
	if e.ErrorKind != "" {
		return e.Cause.String() + ", " + e.ErrorKind
	}
	return e.Cause.String()
}

func (e Entry) reasonText() string {
	switch e.Reason {
	case NotStarted:
		return "the run has not started"
	case Ended:
		return "the run has ended"
	case NotSubscribed:
		return "state " + e.State + " does not subscribe to it"
	case NoSlot:
		return "state " + e.State + " has no such slot"
	case Taken:
		return "the slot is already taken"
	case Started:
		return "the run has already started"
	}
	return e.Reason.String()
}

// Attempts writes "1 attempt", "3 attempts".
func Attempts(n int64) string {
	if n == 1 {
		return "1 attempt"
	}
	return strconv.FormatInt(n, 10) + " attempts"
}
