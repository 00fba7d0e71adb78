package parser

import (
	"regexp"
	"strings"

	"github.com/wfc-lang/wfc/lexer"
)

// participle describes what it expected as grammar text ( `"}"`, `<ident>`,
// or a whole production). expectation rewrites that into the language's
// words, using the token before the error for context:
// "expected `,` or `}` after enum member `Small`, found `Large`".

var quoted = regexp.MustCompile(`"([^"]+)"`)

func (cp *chunkParser) expectation(i int, s span, expect, what string) (want, after string) {
	found := cp.describe(i)
	prev := i - 1
	if prev < s.lo {
		if what == "security rule" {
			return "`allow` or `deny` to start a security rule", ""
		}
		return genericWant(what), ""
	}
	pt := struct{ Kind lexer.Kind }{cp.kind(prev)}
	ptext := cp.word(prev)
	after = "`" + ptext + "`"
	want = translateExpect(expect)
	// pp is the token before prev, for telling a type from a name.
	pp := ""
	if prev-1 >= s.lo {
		pp = cp.text(prev - 1)
	}
	atFirst := prev == s.lo // prev is the chunk's first token

	// Context the grammar alone cannot phrase well, most specific first.
	switch {
	case pt.Kind == lexer.Keyword && keywordWants[ptext] != "":
		want = keywordWants[ptext]
	case what == "enum" && pt.Kind == lexer.Ident && prev == s.lo+1:
		want = "`{`"
		after = "`enum " + ptext + "`"
	case what == "enum" && pt.Kind == lexer.Ident:
		want = "`,` or `}`"
		after = "enum member `" + ptext + "`"
	case what == "enum" && (ptext == "," || ptext == "{"):
		want = "an enum member name or `}`"
	case (what == "setting" || what == "workflow member" || what == "state item" || what == "milestone item") && atFirst && pt.Kind == lexer.Ident:
		want = "`=` (a setting is `Name = value;`)"
		if what == "milestone item" {
			want = "`=` (a setting) or `{` (an outcome block)"
		}
	case what == "milestone" && atFirst && pt.Kind == lexer.Ident:
		want = "`{`"
	case what == "entity" && atFirst && pt.Kind == lexer.Ident || pt.Kind == lexer.Ident && (pp == "(" || pp == ",") && (found == "`)`" || found == "`,`"):
		// `string;` in an entity, `Ev(int)` in a parameter list: a type without its name.
		want = "a name"
		after = "the type `" + ptext + "`"
	case ptext == "(" && (what == "event" || what == "subscription" || what == "handler") && want == "`)`":
		want = "a parameter (`Type name`) or `)`"
	case want == "`]`" && (pt.Kind == lexer.Ident || ptext == ")"):
		want = "`,` or `]`"
	case want == "`)`" && (pt.Kind == lexer.Ident || pt.Kind == lexer.Int || pt.Kind == lexer.Decimal || pt.Kind == lexer.String || ptext == ")" || ptext == "true" || ptext == "false"):
		// After an argument or a parameter, a list goes on with `,`.
		want = "`,` or `)`"
	case what == "statement" && ptext == ")" && want == "":
		want = "`;` (or `{ … }` for a durable step)"
	case (ptext == "=" || ptext == ":" || ptext == "&&" || ptext == "||" || ptext == "!" || ptext == "==" || ptext == "!=" ||
		ptext == "<" || ptext == "<=" || ptext == ">" || ptext == ">=") && want == "":
		want = "a value"
	case want == "":
		want = genericWant(what)
	}
	return want, after
}

// keywordWants says what follows each reserved word that takes a name or a block.
var keywordWants = map[string]string{
	"enum":      "the enum's name",
	"entity":    "the entity's name",
	"event":     "the event's name",
	"subscribe": "the name of the event to wait for",
	"on":        "the name of a subscribed event or its alias",
	"goto":      "the name of a state",
	"as":        "an alias name",
	"default":   "`{`",
	"security":  "`{`",
	"allow":     "an operation (`read`, `create`, `update` or `delete`)",
	"deny":      "an operation (`read`, `create`, `update` or `delete`)",
	"when":      "a condition",
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

func genericWant(what string) string {
	switch what {
	case "enum":
		return "`enum Name { Member, … }`"
	case "entity":
		return "a field (`Type Name;`), a `security { … }` block or `}`"
	case "event":
		return "`event Name(Type name, …);`"
	case "setting":
		return "`Name = value;`"
	case "subscription":
		return "`subscribe Event(…) as Alias { milestones }` or `subscribe Event(…);`"
	case "handler":
		return "`on Name(…) { statements }`"
	case "workflow member":
		return "a workflow member (`Name = value;`, `event`, `state` or `terminal`)"
	case "state item":
		return "a state item (`Name = value;`, `subscribe …` or `on …`)"
	case "security rule":
		return "`allow|deny operation, … [when condition];`"
	case "attribute list":
		return "`[Attribute, …]`"
	case "milestone":
		return "a milestone (`Assigned { … }` or `Finished { … }`)"
	case "milestone item":
		return "a setting (`Within = …;`) or an outcome (`Unfinished { … }`)"
	case "statement":
		return "a statement (`goto State;`, `default { … }`, a case `Member { … }` or a call)"
	}
	return "something else"
}
