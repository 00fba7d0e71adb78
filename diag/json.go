package diag

import (
	"encoding/json"
	"io"
)

// JSONVersion is the version field of the JSON document (README.md, "JSON format").
const JSONVersion = 1

// Notification is a problem of the run rather than of the source: a path
// that could not be read, a file --fix could not write. It makes the exit
// status 2, and goes into the JSON document and the SARIF log so that a
// mistyped path never looks like a clean result.
type Notification struct {
	Path    string `json:"path"`    // the path as given or found
	Message string `json:"message"` // one line: "cannot read a.wf: no such file or directory"
}

type jsonDoc struct {
	Version       int            `json:"version"`
	Diagnostics   []jsonDiag     `json:"diagnostics"`
	Notifications []Notification `json:"notifications,omitempty"`
	Summary       jsonSum        `json:"summary"`
}

type jsonDiag struct {
	File     string    `json:"file"`
	Severity string    `json:"severity"`
	Code     string    `json:"code"`
	Message  string    `json:"message"`
	Range    Range     `json:"range"`
	Related  []Related `json:"related"`
	Fixes    []Fix     `json:"fixes"`
}

type jsonSum struct {
	Files    int `json:"files"`
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
}

// WriteJSON writes the `wfc check --format json` document (README.md, "JSON format")
// of a run without notifications.
func WriteJSON(w io.Writer, ds []Diagnostic, files int) error {
	return WriteJSONNotes(w, ds, files, nil)
}

// WriteJSONNotes writes the `wfc check --format json` document with the
// run's notifications, present only when there are some (like a table's
// `truncated`), so the document of a run that read every path is unchanged.
// `related` and `fixes` are always arrays, never null.
func WriteJSONNotes(w io.Writer, ds []Diagnostic, files int, notes []Notification) error {
	doc := jsonDoc{Version: JSONVersion, Diagnostics: make([]jsonDiag, 0, len(ds)), Notifications: notes}
	for _, d := range ds {
		jd := jsonDiag{
			File: d.File, Severity: d.Severity.String(), Code: string(d.Code), Message: d.Message,
			Range: d.Range, Related: d.Related, Fixes: d.Fixes,
		}
		if jd.Related == nil {
			jd.Related = []Related{}
		}
		if jd.Fixes == nil {
			jd.Fixes = []Fix{}
		}
		for i := range jd.Fixes {
			if jd.Fixes[i].Edits == nil {
				jd.Fixes[i].Edits = []Edit{}
			}
		}
		doc.Diagnostics = append(doc.Diagnostics, jd)
	}
	doc.Summary.Files = files
	doc.Summary.Errors, doc.Summary.Warnings = Counts(ds)
	enc := json.NewEncoder(jsonWriter{w}) // no raw DEL, C1 or bidi control (escape.go)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}
