package main

import (
	"crypto/rand"
	"encoding/hex"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/wfc-lang/wfc/diag"
)

// unifiedDiff is the unified diff, three lines of context, of a file's change
// from old to new; `wfc fmt -d` and `wfc check --fix --diff` both print it.
// It is a minimal line diff (Myers, as gopls computes it): an unchanged line
// is context, never removed and added again. The name is escaped
// (diag.Escape) so that a line break in it cannot forge a header line.
func unifiedDiff(name, old, new string) string {
	from, to := "a/"+diag.Escape(name), "b/"+diag.Escape(name)
	d, err := udiff.ToUnified(from, to, old, udiff.Lines(old, new), udiff.DefaultContextLines)
	if err != nil {
		// Cannot happen: the edits are computed from old. Replace the whole
		// text, an edit that is valid by construction.
		d, _ = udiff.ToUnified(from, to, old, []udiff.Edit{{Start: 0, End: len(old), New: new}}, udiff.DefaultContextLines)
	}
	return d
}

// guardUntrusted frames text that must be printed as it is (a diff of
// source from a pull request) so that a GitHub Actions runner acts on none
// of its lines: when GITHUB_ACTIONS=true it is printed between
// `::stop-commands::TOKEN` and `::TOKEN::`, GitHub's documented way to
// print untrusted text, with a random token the text cannot hold. Elsewhere
// it is returned as it is.
func guardUntrusted(text string, getenv func(string) string) string {
	if getenv("GITHUB_ACTIONS") != "true" || text == "" {
		return text
	}
	token := stopToken()
	for strings.Contains(strings.ToLower(text), token) {
		token = stopToken()
	}
	return "::stop-commands::" + token + "\n" + text + "::" + token + "::\n"
}

// stopToken is 128 random bits in hex.
func stopToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	return hex.EncodeToString(b[:])
}
