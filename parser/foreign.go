package parser

import (
	"strings"

	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/lexer"
)

// Other languages' syntax, as people carry it over (docs/language.md,
// "Other languages' forms"): each form is one WF001 that names it and
// says what to write instead, with a fix where only one is possible, and
// it is read as what it means here, so nothing after it cascades. The
// lexical forms (`#` comments, quotes, letters) are the lexer's
// (lexer/foreign.go); the forms of expressions and parameters are read
// where those are parsed (expr.go, leaves.go); the forms of statements and
// settings, which span tokens a parse would stumble on, are found here,
// once, before anything else reads the tokens:
//
//   - `goto(State);`, a call's parentheses: read as `goto State;`;
//   - `};`, C#'s and TypeScript's `;` after a block: read without it;
//   - `Initial: Queued` at the start of a member's line, YAML's setting:
//     read as `Initial = Queued;`;
//   - `if (…) { … } else if (…) { … } else { … }` (and Python's `elif`),
//     where a handler chooses by case: one report at the `if` (convStmt),
//     the chain's `else` read as its continuation, not as a statement of
//     its own, and the block is read as broken, so what it hides is not
//     reported (`else` alone, where `default` belongs, is a misspelt
//     keyword: keywords.go).

// foreignForms finds the forms above, reports each, and rewrites fp.toks:
// tokens to drop, a `;` to insert, tokens read as other text (respelt).
func (fp *fileParser) foreignForms() {
	n := len(fp.toks) - 1
	var drop map[int]bool
	var semiAfter map[int]bool
	dropTok := func(i int) {
		if drop == nil {
			drop = map[int]bool{}
		}
		drop[i] = true
	}
	parens := 0   // depth of ( and [, where a label `x:` may begin a line
	yamlEnd := -1 // the last token of the last YAML setting
	for i := 0; i < n; i++ {
		switch c := fp.bracketAt(i); c {
		case '(', '[':
			parens++
		case ')', ']':
			parens = max(parens-1, 0)
		}
		switch {
		case fp.isKeywordText(i, "goto") && fp.isPunct(i+1, "(") && fp.isIdent(i+2) && fp.isPunct(i+3, ")"):
			fp.gotoParens(i)
			dropTok(i + 1)
			dropTok(i + 3)
		case fp.isPunct(i, "}") && fp.isPunct(i+1, ";") && !isVirtualBrace(fp.toks[i]) && !isVirtualBrace(fp.toks[i+1]) &&
			strings.TrimSpace(fp.src[fp.toks[i].End:fp.toks[i+1].Off]) == "":
			fp.semicolonAfterBlock(i + 1)
			dropTok(i + 1)
		case fp.isIdentText(i, "else") && fp.isIdentText(i+1, "if"):
			dropTok(i) // `else if`: read as the `if` (convBlock reports the chain once)
		case fp.isIdentText(i, "else") && fp.isPunct(i+1, "{") && fp.afterIfChain(i):
			fp.respell(i, "if") // the chain's last block, read as part of it
		case fp.isIdentText(i, "elif") && fp.isPunct(i+1, "("):
			fp.respell(i, "if") // Python's `else if`
		case parens == 0 && fp.yamlSetting(i, yamlEnd):
			last := fp.lineEnd(i)
			yamlEnd = last
			fp.reportYAMLSetting(i, last)
			fp.respell(i+1, "=")
			if !fp.isPunct(last, ";") {
				if semiAfter == nil {
					semiAfter = map[int]bool{}
				}
				semiAfter[last] = true
			}
		}
	}
	if drop == nil && semiAfter == nil {
		return
	}
	toks := make([]lexer.Token, 0, len(fp.toks)+len(semiAfter))
	inserted := map[int]string{}
	for i, t := range fp.toks {
		if s, ok := fp.inserted[i]; ok {
			inserted[len(toks)] = s
		}
		if drop[i] {
			continue
		}
		toks = append(toks, t)
		if semiAfter[i] {
			inserted[len(toks)] = ";"
			toks = append(toks, virtualBrace(fp.src, t))
		}
	}
	fp.toks, fp.inserted = toks, inserted
}

// isKeywordText and isIdentText report whether token i is that reserved
// word, or that name, as written.
func (fp *fileParser) isKeywordText(i int, w string) bool {
	return fp.toks[i].Kind == lexer.Keyword && fp.text(i) == w
}

func (fp *fileParser) isIdentText(i int, w string) bool {
	return fp.toks[i].Kind == lexer.Ident && fp.text(i) == w
}

// respell reads token i as text.
func (fp *fileParser) respell(i int, text string) {
	if fp.respelt == nil {
		fp.respelt = map[uint32]string{}
	}
	fp.respelt[fp.toks[i].Off] = text
}

// gotoParens reports `goto(State)` at i, with the fix that removes the
// parentheses (a space where `goto` runs into the name).
func (fp *fileParser) gotoParens(i int) {
	name := fp.text(i + 2)
	d := fp.diags.Add(fp.file.Name, fp.spanOf(i+1, i+3), diag.WF001,
		"`goto` is a statement, not a call: it takes the state's name without parentheses, `goto "+name+";`")
	open := ""
	if fp.toks[i].End == fp.toks[i+1].Off {
		open = " "
	}
	d.Fixes = []diag.Fix{{Title: "write `goto " + name + "`", MachineApplicable: true, Edits: []diag.Edit{
		{File: fp.file.Name, Range: fp.tokRange(i + 1), NewText: open},
		{File: fp.file.Name, Range: fp.tokRange(i + 3), NewText: ""},
	}}}
}

// semicolonAfterBlock reports the `;` at i, right after a `}`.
func (fp *fileParser) semicolonAfterBlock(i int) {
	d := fp.diags.Add(fp.file.Name, fp.tokRange(i), diag.WF001,
		"unexpected `;` after `}`: a block ends at its `}` (the `;` after a declaration is C#'s and TypeScript's habit); remove it")
	d.Fixes = []diag.Fix{{Title: "remove the `;`", MachineApplicable: true,
		Edits: []diag.Edit{{File: fp.file.Name, Range: fp.tokRange(i), NewText: ""}}}}
}

// afterIfChain reports whether the `else` or `elif` at i follows the
// block of an `if (…) { … }` (or of an `else if`, an `elif`): the `}`
// before it closes a block after a `)` whose `(` follows `if` or `elif`.
func (fp *fileParser) afterIfChain(i int) bool {
	if i < 1 || !fp.isPunct(i-1, "}") {
		return false
	}
	open := fp.matchingBackBrace(i - 1)
	if open < 1 || !fp.isPunct(open-1, ")") {
		return false
	}
	lp := fp.matchingBack(open - 1)
	return lp >= 1 && (fp.isIdentText(lp-1, "if") || fp.isIdentText(lp-1, "elif"))
}

// matchingBackBrace is the `{` that the `}` at close closes, or -1; it
// looks back at most a few hundred tokens (an if's block is short).
func (fp *fileParser) matchingBackBrace(close int) int {
	depth := 0
	for k := close; k >= 0 && close-k < 400; k-- {
		switch fp.bracketAt(k) {
		case '}':
			depth++
		case '{':
			if depth--; depth == 0 {
				return k
			}
		}
	}
	return -1
}

// yamlSetting reports whether token i starts a line with YAML's setting,
// `Name: value` inside a body: a name, then `:` and a value on the same
// line, where a member or item begins (after `{`, `;`, `}` or another
// such setting, whose `;` is missing too).
func (fp *fileParser) yamlSetting(i, yamlEnd int) bool {
	if !fp.isIdent(i) || !fp.beginsLine(i) || !fp.isPunct(i+1, ":") || i+2 >= len(fp.toks)-1 || !fp.sameLine(i, i+2) || i == 0 {
		return false
	}
	if !(fp.isPunct(i-1, "{") || fp.isPunct(i-1, ";") || fp.isPunct(i-1, "}") || i-1 == yamlEnd) {
		return false
	}
	switch fp.toks[i+2].Kind {
	case lexer.Ident, lexer.Int, lexer.Decimal, lexer.String:
		return true
	case lexer.Keyword: // `Autostart: true`, not C#'s label `Ok: goto A;`
		return fp.text(i+2) == "true" || fp.text(i+2) == "false"
	}
	return false
}

func (fp *fileParser) sameLine(a, b int) bool { return fp.toks[a].Line == fp.toks[b].Line }

// lineEnd is the last token on token i's line.
func (fp *fileParser) lineEnd(i int) int {
	for i+1 < len(fp.toks)-1 && fp.sameLine(i, i+1) {
		i++
	}
	return i
}

// reportYAMLSetting reports `Name: value` from i to last, with the fix
// that writes `Name = value;`.
func (fp *fileParser) reportYAMLSetting(i, last int) {
	name := fp.text(i)
	d := fp.diags.Add(fp.file.Name, fp.tokRange(i+1), diag.WF001,
		"`"+name+": …` is YAML's: a setting is written `"+name+" = value;`")
	colon := fp.tokRange(i + 1)
	if fp.toks[i].End == fp.toks[i+1].Off {
		colon.Start = fp.endOf(i)
	}
	edits := []diag.Edit{{File: fp.file.Name, Range: colon, NewText: " ="}}
	if !fp.isPunct(last, ";") {
		at := fp.endOf(last)
		edits = append(edits, diag.Edit{File: fp.file.Name, Range: diag.Range{Start: at, End: at}, NewText: ";"})
	}
	d.Fixes = []diag.Fix{{Title: "write `" + name + " = …;`", MachineApplicable: true, Edits: edits}}
}

// spanOf is the range from token a's start to token b's end.
func (fp *fileParser) spanOf(a, b int) diag.Range {
	return diag.Range{Start: fp.tokRange(a).Start, End: fp.tokRange(b).End}
}
