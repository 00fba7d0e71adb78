package lexer

import "strings"

// gluedNumberHint ends WF004's message for digits glued to letters (`5s`,
// `1e308`, `3abc`). Only a duration unit gets a `TimeSpan` rewrite, with the
// unit the letters name; exponent notation is named as such, since
// `TimeSpan.FromSeconds(1)` is not what `1e308` meant.
func gluedNumberHint(digits, rest string) string {
	units := map[string]string{
		"ms": "FromMilliseconds", "s": "FromSeconds", "sec": "FromSeconds", "secs": "FromSeconds",
		"m": "FromMinutes", "min": "FromMinutes", "mins": "FromMinutes",
		"h": "FromHours", "hr": "FromHours", "hrs": "FromHours", "d": "FromDays", "days": "FromDays",
	}
	if u, ok := units[strings.ToLower(rest)]; ok {
		return ": a number cannot run into letters; for a duration write `TimeSpan." + u + "(" + digits + ")`"
	}
	if (rest[0] == 'e' || rest[0] == 'E') && strings.Trim(rest[1:], "0123456789") == "" {
		return ": exponent notation is not part of the language; write the number out in digits"
	}
	return ": a number cannot run into letters; put a space or an operator between them"
}
