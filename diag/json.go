package diag

import (
	"encoding/json"
	"io"
)

// JSONVersion is the version field of the JSON document (README.md, "JSON format").
const JSONVersion = 1

type jsonDoc struct {
	Version     int        `json:"version"`
	Diagnostics []jsonDiag `json:"diagnostics"`
	Summary     jsonSum    `json:"summary"`
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

// WriteJSON writes the `wfc check --format json` document (README.md, "JSON format").
// `related` and `fixes` are always arrays, never null.
func WriteJSON(w io.Writer, ds []Diagnostic, files int) error {
	doc := jsonDoc{Version: JSONVersion, Diagnostics: make([]jsonDiag, 0, len(ds))}
	for _, d := range ds {
		jd := jsonDiag{
			File: d.File, Severity: d.Severity.String(), Code: d.Code, Message: d.Message,
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
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}
