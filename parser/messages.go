package parser

import (
	"regexp"
	"strings"

	"github.com/wfc-lang/wfc/lexer"
)

// Errors found by participle itself (not by the hand-read leaves, whose
// errors carry their expectation) say what was expected as grammar text
// (`"}"`, `<ident>`, or a whole production). expectation puts that into
// the language's words, from the production the piece is (what) and the
// token before the error: "expected `,` or `}` after enum member `Small`,
// found `Large`".

var quoted = regexp.MustCompile(`"([^"]+)"`)

func (cp *chunkParser) expectation(i int, s span, expect string, what prod) (want, after string) {
	prev := i - 1
	if prev < s.lo {
		if what == prodSecurityRule {
			return "`allow` or `deny` to start a security rule", ""
		}
		return what.want(), ""
	}
	ptext := cp.word(prev)
	after = "`" + ptext + "`"
	want = translateExpect(expect)
	isName := cp.kind(prev) == lexer.Ident
	atFirst := prev == s.lo // prev is the piece's first token
	// Context the grammar alone cannot phrase well, most specific first.
	switch {
	case what == prodStatement && cp.inCatch(i, s):
		want = catchCaseWant + " or `}`"
	case cp.kind(prev) == lexer.Keyword && keywords[ptext].next != "":
		want = keywords[ptext].next
	case what == prodEnum:
		return cp.enumExpectation(prev, s, want, after)
	case atFirst && isName && productions[what].afterName != "":
		want = productions[what].afterName
	case what == prodEntity && atFirst && isName:
		// `string;` in an entity: a type without its name.
		want, after = "a name", "the type `"+ptext+"`"
	case what == prodStatement && ptext == ")" && want == "":
		want = "`;` (or `{ … }` for a durable step)"
	case ptext == "=" && want == "":
		want = "a value"
	case want == "":
		want = what.want()
	}
	return want, after
}

// enumSeparator is what may follow an enum member's name.
const enumSeparator = "`,` or `}`"

// enumExpectation is expectation inside `enum Name { A, B }`.
func (cp *chunkParser) enumExpectation(prev int, s span, want, after string) (string, string) {
	ptext := cp.word(prev)
	switch {
	case cp.kind(prev) == lexer.Ident && prev == s.lo+1:
		return "`{`", "`enum " + ptext + "`"
	case cp.kind(prev) == lexer.Ident:
		return enumSeparator, "enum member `" + ptext + "`"
	case ptext == "," || ptext == "{":
		return "an enum member name or `}`", after
	case want == "":
		return prodEnum.want(), after
	}
	return want, after
}

// translateExpect turns participle's expectation into words, or "" when it
// is a whole production too long to read.
func translateExpect(expect string) string {
	expect = strings.TrimSpace(expect)
	if expect == "" || len(expect) > 60 || strings.ContainsAny(expect, "()[]{}*?") && !isSingleQuoted(expect) {
		return ""
	}
	var alts []string
	for _, part := range strings.Split(expect, "|") {
		part = strings.TrimSpace(part)
		switch {
		case part == "<ident>":
			alts = append(alts, "a name")
		case part == "<int>":
			alts = append(alts, "an integer")
		case part == "<decimal>":
			alts = append(alts, "a decimal")
		case part == "<string>":
			alts = append(alts, "a string")
		case quoted.MatchString(part) && quoted.FindString(part) == part:
			alts = append(alts, "`"+strings.Trim(part, `"`)+"`")
		default:
			return ""
		}
	}
	switch len(alts) {
	case 0:
		return ""
	case 1:
		return alts[0]
	}
	return strings.Join(alts[:len(alts)-1], ", ") + " or " + alts[len(alts)-1]
}

func isSingleQuoted(s string) bool {
	return len(s) >= 3 && s[0] == '"' && s[len(s)-1] == '"' && !strings.Contains(s[1:len(s)-1], `"`)
}

// catchCaseWant is what a catch holds.
const catchCaseWant = "a case of the catch (`Reason { … }`, `Kind { … }` or `default { … }`)"

// inCatch reports whether token i stands right inside the braces of a
// `catch`, where its cases go: the innermost `{` still open before it
// follows the word `catch`, which follows a `}`.
func (cp *chunkParser) inCatch(i int, s span) bool {
	depth := 0
	for k := i - 1; k >= s.lo; k-- {
		switch {
		case cp.isPunct(k, "}"):
			depth++
		case cp.isPunct(k, "{") && depth > 0:
			depth--
		case cp.isPunct(k, "{"):
			return k-2 >= s.lo && cp.kind(k-1) == lexer.Ident && cp.word(k-1) == "catch" && cp.isPunct(k-2, "}")
		}
	}
	return false
}
