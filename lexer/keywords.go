package lexer

import "slices"

// keywords are the reserved words isKeyword accepts, in its order;
// TestKeywordsList reads isKeyword's cases from lexer.go and compares, so
// the two cannot drift.
var keywords = []string{"enum", "entity", "workflow", "event", "state",
	"terminal", "subscribe", "as", "on", "goto",
	"default", "security", "allow", "deny", "when",
	"true", "false"}

// Keywords returns the reserved words of the language (a copy), for tools
// that highlight source outside Go: the playground's editor reads a table
// generated from it.
func Keywords() []string { return slices.Clone(keywords) }
