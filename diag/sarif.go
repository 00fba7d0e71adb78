package diag

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
)

// SARIFOptions describe the tool and map file names to artifact URIs.
type SARIFOptions struct {
	Version string
	// URI maps a file name as reported to a repository-relative URI.
	URI func(file string) string
	// Notifications are problems of the run (unreadable paths); with any,
	// the invocation is not successful.
	Notifications []Notification
}

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool        sarifTool         `json:"tool"`
	Invocations []sarifInvocation `json:"invocations"`
	ColumnKind  string            `json:"columnKind"`
	Results     []sarifResult     `json:"results"`
}

// sarifInvocation says whether the run did its whole job: a path it could
// not read makes executionSuccessful false, with a notification naming it,
// so that code scanning does not take a mistyped path for a clean result.
type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level     string                 `json:"level"`
	Message   sarifText              `json:"message"`
	Locations []notificationLocation `json:"locations,omitempty"`
}

// notificationLocation is a location naming a whole artifact (no region).
type notificationLocation struct {
	PhysicalLocation struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
	} `json:"physicalLocation"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifRule struct {
	ID                   string      `json:"id"`
	Name                 string      `json:"name"`
	ShortDescription     sarifText   `json:"shortDescription"`
	FullDescription      sarifText   `json:"fullDescription"`
	Help                 sarifText   `json:"help"`
	DefaultConfiguration sarifConfig `json:"defaultConfiguration"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifRegion struct {
	StartLine   int32 `json:"startLine"`
	StartColumn int32 `json:"startColumn"`
	EndLine     int32 `json:"endLine"`
	EndColumn   int32 `json:"endColumn"`
	ByteOffset  int32 `json:"byteOffset"`
	ByteLength  int32 `json:"byteLength"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           sarifRegion   `json:"region"`
}

type sarifLocation struct {
	ID               *int          `json:"id,omitempty"`
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
	Message          *sarifText    `json:"message,omitempty"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion `json:"deletedRegion"`
	InsertedContent sarifText   `json:"insertedContent"`
}

type sarifChange struct {
	ArtifactLocation sarifArtifact      `json:"artifactLocation"`
	Replacements     []sarifReplacement `json:"replacements"`
}

type sarifFix struct {
	Description     sarifText     `json:"description"`
	ArtifactChanges []sarifChange `json:"artifactChanges"`
	Properties      sarifFixProps `json:"properties"`
}

type sarifFixProps struct {
	MachineApplicable bool `json:"machineApplicable"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Fixes               []sarifFix        `json:"fixes,omitempty"`
}

func region(r Range) sarifRegion {
	return sarifRegion{
		StartLine: r.Start.Line, StartColumn: r.Start.Column,
		EndLine: r.End.Line, EndColumn: r.End.Column,
		ByteOffset: r.Start.Offset, ByteLength: r.End.Offset - r.Start.Offset,
	}
}

func level(s Severity) string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// WriteSARIF writes diagnostics as a SARIF 2.1.0 log that GitHub code
// scanning accepts: one run, a rule per code of the catalogue, and per result
// its region, related locations, fixes and a partial fingerprint that does
// not change when unrelated lines move (it hashes the code, the file, the
// message and the text of the flagged line, not line numbers).
func WriteSARIF(w io.Writer, ds []Diagnostic, src Sources, opt SARIFOptions) error {
	uri := memoURI(opt.URI)
	run := sarifRun{ColumnKind: "unicodeCodePoints", Results: []sarifResult{},
		Invocations: []sarifInvocation{invocation(opt.Notifications, uri)}}
	run.Tool.Driver = sarifDriver{Name: "wfc", Version: opt.Version, InformationURI: "https://github.com/wfc-lang/wfc"}
	index := map[ID]int{}
	for i, c := range Codes {
		index[c.Code] = i
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{
			ID: string(c.Code), Name: ruleName(c.Title),
			ShortDescription:     sarifText{c.Title},
			FullDescription:      sarifText{c.Explain},
			Help:                 sarifText{c.Help()},
			DefaultConfiguration: sarifConfig{level(c.Severity)},
		})
	}
	seen := map[string]int{}
	fp := fingerprinter{src: src, lines: map[lineKey]string{}, starts: map[string][]int{}}
	for _, d := range ds {
		res := sarifResult{
			RuleID: string(d.Code), RuleIndex: index[d.Code], Level: level(d.Severity),
			Message: sarifText{d.Message},
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
				ArtifactLocation: sarifArtifact{uri(d.File)}, Region: region(d.Range)}}},
		}
		for i, rel := range d.Related {
			id := i + 1
			res.RelatedLocations = append(res.RelatedLocations, sarifLocation{
				ID:               &id,
				PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{uri(rel.File)}, Region: region(rel.Range)},
				Message:          &sarifText{rel.Message},
			})
		}
		for _, f := range d.Fixes {
			sf := sarifFix{Description: sarifText{f.Title}, Properties: sarifFixProps{f.MachineApplicable}}
			byFile := map[string]int{}
			for _, e := range f.Edits {
				k, ok := byFile[e.File]
				if !ok {
					k = len(sf.ArtifactChanges)
					byFile[e.File] = k
					sf.ArtifactChanges = append(sf.ArtifactChanges, sarifChange{ArtifactLocation: sarifArtifact{uri(e.File)}})
				}
				sf.ArtifactChanges[k].Replacements = append(sf.ArtifactChanges[k].Replacements,
					sarifReplacement{DeletedRegion: region(e.Range), InsertedContent: sarifText{e.NewText}})
			}
			if len(sf.ArtifactChanges) > 0 {
				res.Fixes = append(res.Fixes, sf)
			}
		}
		sum := fp.of(&d, uri(d.File))
		seen[sum]++
		res.PartialFingerprints = map[string]string{fingerprintKey: fmt.Sprintf("%s:%d", sum, seen[sum])}
		run.Results = append(run.Results, res)
	}
	results := run.Results
	run.Results = []sarifResult{}
	log := sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{run},
	}
	return writeStreamed(jsonWriter{w}, log, results)
}

// resultsIndent is how deep a result sits in the document: log, runs, the
// run, its results.
const resultsIndent = "        "

// writeStreamed writes the document as json.Encoder with a two-space
// indent writes it, byte for byte, but the results one at a time: a
// crafted file's thousands of findings never make one document-sized
// buffer (nor its indented copy) that the collector must scan.
func writeStreamed(w io.Writer, log sarifLog, results []sarifResult) error {
	var head bytes.Buffer
	enc := json.NewEncoder(&head)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(log); err != nil {
		return err
	}
	doc := head.Bytes()
	const empty = `"results": []`
	at := bytes.LastIndex(doc, []byte(empty))
	if at < 0 || len(results) == 0 {
		_, err := w.Write(doc)
		return err
	}
	cut := at + len(empty) - 1 // at the `]`
	if _, err := w.Write(append(doc[:cut:cut], '\n')); err != nil {
		return err
	}
	var one bytes.Buffer
	renc := json.NewEncoder(&one)
	renc.SetIndent(resultsIndent, "  ")
	renc.SetEscapeHTML(false)
	for i := range results {
		one.Reset()
		one.WriteString(resultsIndent)
		if err := renc.Encode(&results[i]); err != nil {
			return err
		}
		b := bytes.TrimSuffix(one.Bytes(), []byte("\n"))
		if i < len(results)-1 {
			b = append(b, ',')
		}
		b = append(b, '\n')
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	_, err := w.Write(append([]byte(resultsIndent[:len(resultsIndent)-2]), doc[cut:]...))
	return err
}

// memoURI computes each file's URI once: findings are many, files few, and
// a URI function may ask the operating system (the working directory).
func memoURI(f func(string) string) func(string) string {
	if f == nil {
		return func(f string) string { return f }
	}
	seen := map[string]string{}
	return func(file string) string {
		u, ok := seen[file]
		if !ok {
			u = f(file)
			seen[file] = u
		}
		return u
	}
}

// fingerprintKey names the partial fingerprint. v2 hashes a digest of the
// flagged line instead of the line itself, so a long line with many
// findings is hashed once, not once per finding.
const fingerprintKey = "wfcFinding/v2"

// fingerprinter computes partial fingerprints: what is flagged, not where
// it is (code, file, message and the trimmed text of the flagged line, not
// line numbers); WriteSARIF adds a counter that tells identical findings in
// one file apart. The digest of each line is computed once, so the work is
// linear in the input plus the messages, however many findings share a line.
type fingerprinter struct {
	src    Sources
	starts map[string][]int   // line starts per file, built lazily
	lines  map[lineKey]string // digest of each flagged line
}

type lineKey struct {
	file string
	line int32
}

func (f *fingerprinter) of(d *Diagnostic, uri string) string {
	k := lineKey{d.File, d.Range.Start.Line}
	digest, ok := f.lines[k]
	if !ok {
		line := strings.TrimSpace(f.lineText(k))
		fingerprintBytes.Add(int64(len(line)))
		sum := sha256.Sum256([]byte(line))
		digest = string(sum[:])
		f.lines[k] = digest
	}
	h := sha256.New()
	n, _ := fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s", d.Code, uri, d.Message, digest)
	fingerprintBytes.Add(int64(n))
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// fingerprintBytes counts the bytes the fingerprints hash: each flagged
// line once, then each finding's code, file, message and line digest.
// TestSARIFLinear reads it (a count, unlike a time, does not depend on the
// machine).
var fingerprintBytes atomic.Int64

// lineText returns the text of line k (1-based), without its line break.
func (f *fingerprinter) lineText(k lineKey) string {
	src, ok := f.src[k.file]
	if !ok {
		return ""
	}
	ls, ok := f.starts[k.file]
	if !ok {
		ls = LineStarts(src)
		f.starts[k.file] = ls
	}
	n := int(k.line)
	if n < 1 || n > len(ls) {
		return ""
	}
	end := len(src)
	if n < len(ls) {
		end = ls[n]
	}
	return strings.TrimRight(src[ls[n-1]:end], "\r\n")
}

// ruleName turns a title into a PascalCase rule name ("duplicate name" →
// "DuplicateName"), as SARIF viewers show it.
func ruleName(title string) string {
	var b strings.Builder
	up := true
	for _, r := range title {
		switch {
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9':
			if up && r >= 'a' && r <= 'z' {
				r -= 'a' - 'A'
			}
			b.WriteRune(r)
			up = false
		case r == ':' || r == ',' || r == '(':
			return b.String()
		default:
			up = true
		}
	}
	return b.String()
}

// invocation reports the run's notifications: each one an error-level tool
// execution notification naming its path, and executionSuccessful false.
func invocation(notes []Notification, uri func(string) string) sarifInvocation {
	inv := sarifInvocation{ExecutionSuccessful: len(notes) == 0}
	for _, n := range notes {
		sn := sarifNotification{Level: "error", Message: sarifText{n.Message}}
		if n.Path != "" {
			var loc notificationLocation
			loc.PhysicalLocation.ArtifactLocation = sarifArtifact{uri(n.Path)}
			sn.Locations = []notificationLocation{loc}
		}
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, sn)
	}
	return inv
}
