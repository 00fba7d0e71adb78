package parser

import (
	"slices"
	"strings"

	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/lexer"
)

// A reserved word where a name belongs (`workflow.Once(…)` for
// `Workflow.Once`, an event parameter named `state`) is found before any
// parsing, like a misspelled keyword (keywords.go), reported once and from
// then on read as a name (fileParser.names): the splitter does not cut a
// declaration there and participle sees a name, so the statement or the
// declaration it stands in parses and nothing after it cascades.
//
// A reserved word is read as a name where no keyword can stand:
//   - before `.` or after it (`workflow.Once`, `x.state`): the capitalised
//     form is suggested and read, since members and built-ins are
//     capitalised;
//   - before `(`, for a word that never takes `(` next (`state(…)`): the
//     same;
//   - after a type and before `,` `)` or `;` (`string state)`): a parameter
//     or a field, but for `when` after a security rule's operations
//     (`allow read when;`), where it starts a condition that is missing;
//   - after a keyword that takes a name, and before the punctuation that
//     follows that name (`event on(`, `goto default;`), first of all.

// Lex is lexer.Lex with the reserved words marked (lexer.Keyword): the
// lexer reads every word as a name, and which words are reserved is the
// grammar's (keywords, productions.go). The parser and every tool that
// tells a keyword from a name (the formatter, the language server) lex
// through here, so a word added to the table is reserved everywhere.
func Lex(name, src string) lexer.Result {
	res := lexer.Lex(name, src)
	markReserved(res.Tokens, src)
	return res
}

// markReserved turns every name that is a reserved word into a Keyword.
func markReserved(toks []lexer.Token, src string) {
	for i := range toks {
		if t := &toks[i]; t.Kind == lexer.Ident && IsReserved(src[t.Off:t.End]) {
			t.Kind = lexer.Keyword
		}
	}
}

// IsReserved reports whether word is a reserved word of the language. Most
// names are capitalised, and every reserved word is lower case: the first
// letter decides for them without a lookup.
func IsReserved(word string) bool {
	if len(word) < 2 || len(word) > maxKeyword || word[0] < 'a' || word[0] > 'z' {
		return false
	}
	_, ok := keywords[word]
	return ok
}

// maxKeyword is the length of the longest reserved word.
var maxKeyword = func() int {
	n := 0
	for w := range keywords {
		n = max(n, len(w))
	}
	return n
}()

// ReservedWords lists the reserved words, sorted.
func ReservedWords() []string {
	out := make([]string, 0, len(keywords))
	for w := range keywords {
		out = append(out, w)
	}
	slices.Sort(out)
	return out
}

// reservedNames records in fp.names every reserved word that stands where a
// name belongs, and reports each.
func (fp *fileParser) reservedNames() {
	for i := 0; i < len(fp.toks)-1; i++ {
		if fp.toks[i].Kind != lexer.Keyword {
			continue
		}
		word := fp.text(i)
		if word == "true" || word == "false" {
			continue
		}
		role, capital := fp.nameRole(i, word)
		if role == "" {
			continue
		}
		fp.reportReserved(i, word, role, capital)
	}
}

// nameRole says what name a reserved word at i stands for ("" when it is a
// keyword there) and whether the capitalised form is meant.
func (fp *fileParser) nameRole(i int, word string) (role string, capital bool) {
	next, prev := i+1, i-1
	switch {
	case prev >= 0 && fp.toks[prev].Kind == lexer.Keyword && keywords[fp.text(prev)].name && fp.toks[next].Kind == lexer.Punct &&
		strings.Contains("{(;,)", fp.text(next)):
		return keywords[fp.text(prev)].next, false
	case fp.isPunct(next, "."):
		return "a name", true
	case prev >= 0 && fp.isPunct(prev, "."):
		return "a member name", true
	case fp.isPunct(next, "(") && !keywords[word].paren:
		return "a name", true
	case prev >= 0 && fp.toks[prev].Kind == lexer.Ident && fp.isPunct(next, ";") && !(word == "when" && fp.afterOperations(prev)):
		return "a field name", false
	case prev >= 0 && fp.toks[prev].Kind == lexer.Ident && (fp.isPunct(next, ",") || fp.isPunct(next, ")")):
		return "a parameter name", false
	}
	return "", false
}

// reportReserved reports the reserved word at i standing for a name and
// records what it is read as.
func (fp *fileParser) reportReserved(i int, word, role string, capital bool) {
	if fp.names == nil {
		fp.names = map[int]string{}
	}
	r := fp.tokRange(i)
	if !capital {
		fp.names[i] = word
		fp.diags.Add(fp.file.Name, r, diag.WF001, "`"+word+"` is a reserved word and cannot be "+role+": choose another name")
		return
	}
	cap := strings.ToUpper(word[:1]) + word[1:]
	fp.names[i] = cap
	d := fp.diags.Add(fp.file.Name, r, diag.WF001, "`"+word+"` is a reserved word and cannot be "+role+"; did you mean `"+cap+"`?")
	d.Fixes = []diag.Fix{{Title: "replace `" + word + "` with `" + cap + "`",
		Edits: []diag.Edit{{File: fp.file.Name, Range: r, NewText: cap}}}}
}

// afterOperations reports whether the name at last ends the operations of
// a security rule (`allow read, create`): names separated by `,` back to
// `allow` or `deny`. A `when` after them starts the rule's condition, even
// an empty one (`allow read when;`): it is not a field named `when`.
func (fp *fileParser) afterOperations(last int) bool {
	k := last
	for k >= 2 && fp.isPunct(k-1, ",") && fp.isIdent(k-2) {
		k -= 2
	}
	w := ""
	if k >= 1 {
		w = fp.keywordAt(k - 1)
	}
	return w == "allow" || w == "deny"
}
