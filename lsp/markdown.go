package lsp

import "strings"

// User text — names and strings from the source — goes into hovers only
// inside code, where Markdown is not interpreted: a step named
// `x ![p](https://…)` must not become an image the editor fetches, nor a
// link in the server's own tooltip. The fence is one backtick longer than
// the longest run of backticks in the text, so no run can close it.

// longestRun is the length of the longest run of backticks in s.
func longestRun(s string) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}

// codeSpan puts s in an inline code span.
func codeSpan(s string) string {
	s = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
	fence := strings.Repeat("`", longestRun(s)+1)
	// A space on each side keeps a backtick at an end from joining the
	// fence; CommonMark strips one space from each side again.
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || strings.HasPrefix(s, " ") && strings.HasSuffix(s, " ") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// codeBlock puts s in a fenced code block of language lang.
func codeBlock(lang, s string) string {
	fence := strings.Repeat("`", max(3, longestRun(s)+1))
	return fence + lang + "\n" + s + "\n" + fence
}
