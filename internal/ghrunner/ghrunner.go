// Package ghrunner is a port, for tests, of how the GitHub Actions runner
// (github.com/actions/runner) finds workflow commands in a step's output:
// OutputManager.OnDataReceived hands every line that contains `##[` or `::`
// to ActionCommandManager.TryProcessCommand, which tries
// ActionCommand.TryParseV2 (a line that starts with `::name …::` after .NET
// TrimStart) and then ActionCommand.TryParse (`##[name …]` anywhere in the
// line), accepts only registered command names (case-insensitive), and
// honours `::stop-commands::TOKEN` until a command named TOKEN.
//
// wfc's tests run every command's output through it: a line of wfc's
// output the runner would act on is an injection. The port is stricter than
// the runner in one way: the runner compares strings culture-sensitively
// (ICU on Linux), which skips ignorable code points (soft hyphen, zero-width
// joiners, variation selectors…), so `#\u00ad#[` may match `##[`; the port
// deletes every such code point before it compares.
package ghrunner

import (
	"strings"
	"unicode"
)

// registered are the runner's command names (the IActionCommandExtension
// implementations and stop-commands; internal-set-repo-path only while a
// plugin runs, included here to be strict).
var registered = []string{
	"stop-commands", "add-mask", "add-matcher", "add-path", "debug", "echo",
	"internal-set-repo-path", "remove-matcher", "save-state", "set-env",
	"set-output", "warning", "error", "notice", "group", "endgroup",
}

// Command is a workflow command the runner acted on.
type Command struct {
	Line int    // 0-based index of the line in the output
	Name string // the command name, as written
	Data string // what follows the command, unescaped as the runner does
}

// Runner holds the state the runner keeps across lines: whether commands
// are stopped, and by which token.
type Runner struct {
	stopToken string
}

// Lines splits output as .NET's StreamReader.ReadLine does: at LF, CR and
// CR LF (and nowhere else).
func Lines(out string) []string {
	var lines []string
	for len(out) > 0 {
		i := strings.IndexAny(out, "\r\n")
		if i < 0 {
			lines = append(lines, out)
			break
		}
		lines = append(lines, out[:i])
		if out[i] == '\r' && i+1 < len(out) && out[i+1] == '\n' {
			i++
		}
		out = out[i+1:]
	}
	return lines
}

// Scan returns the commands the runner would act on in out (stop-commands
// and its resume token included), in order.
func (r *Runner) Scan(out string) []Command {
	var cmds []Command
	for i, line := range Lines(out) {
		if c, ok := r.processLine(line); ok {
			c.Line = i
			cmds = append(cmds, c)
		}
	}
	return cmds
}

// Scan is (&Runner{}).Scan: out printed by a step on its own.
func Scan(out string) []Command { return (&Runner{}).Scan(out) }

// processLine is OnDataReceived and TryProcessCommand for one line.
func (r *Runner) processLine(line string) (Command, bool) {
	line = dropIgnorable(line)
	if line == "" || !strings.Contains(line, "##[") && !strings.Contains(line, "::") {
		return Command{}, false
	}
	names := r.names()
	c, ok := tryParseV2(line, names)
	if !ok {
		c, ok = tryParse(line, names)
	}
	if !ok {
		return Command{}, false
	}
	if r.stopToken != "" {
		if strings.EqualFold(c.Name, r.stopToken) {
			r.stopToken = ""
			return c, true
		}
		return Command{}, false
	}
	if strings.EqualFold(c.Name, "stop-commands") {
		r.stopToken = c.Data
	}
	return c, true
}

// names are the command names registered now (the stop token while
// stopped).
func (r *Runner) names() []string {
	if r.stopToken != "" {
		return append(registered[:len(registered):len(registered)], r.stopToken)
	}
	return registered
}

func isRegistered(name string, names []string) bool {
	for _, n := range names {
		if strings.EqualFold(n, name) {
			return true
		}
	}
	return false
}

// tryParseV2 is ActionCommand.TryParseV2: `::name props::data` after .NET
// TrimStart, which strips every Unicode white space (Char.IsWhiteSpace is
// the White_Space property, as unicode.IsSpace).
func tryParseV2(message string, names []string) (Command, bool) {
	message = strings.TrimLeftFunc(message, unicode.IsSpace)
	if !strings.HasPrefix(message, "::") {
		return Command{}, false
	}
	end := strings.Index(message[2:], "::")
	if end < 0 {
		return Command{}, false
	}
	end += 2
	info := message[2:end]
	name, _, _ := strings.Cut(info, " ")
	if !isRegistered(name, names) {
		return Command{}, false
	}
	return Command{Name: name, Data: unescapeData(message[end+2:])}, true
}

// tryParse is ActionCommand.TryParse, the legacy form: `##[name props]data`
// anywhere in the line.
func tryParse(message string, names []string) (Command, bool) {
	p := strings.Index(message, "##[")
	if p < 0 {
		return Command{}, false
	}
	rb := strings.IndexByte(message[p:], ']')
	if rb < 0 {
		return Command{}, false
	}
	rb += p
	info := message[p+3 : rb]
	name, _, _ := strings.Cut(info, " ")
	if !isRegistered(name, names) {
		return Command{}, false
	}
	return Command{Name: name, Data: unescape(message[rb+1:])}, true
}

var (
	dataUnescaper = strings.NewReplacer("%0D", "\r", "%0A", "\n", "%25", "%")
	legacyUnescap = strings.NewReplacer("%3B", ";", "%0D", "\r", "%0A", "\n", "%5D", "]", "%25", "%")
)

func unescapeData(s string) string { return dataUnescaper.Replace(s) }
func unescape(s string) string     { return legacyUnescap.Replace(s) }

// dropIgnorable deletes the code points ICU's comparisons ignore (see the
// package comment), and NUL, which they ignore too.
func dropIgnorable(s string) string {
	return strings.Map(func(r rune) rune {
		if Ignorable(r) {
			return -1
		}
		return r
	}, s)
}

// Ignorable reports whether r is a default-ignorable code point (format
// characters, variation selectors and the other ignorables) or NUL.
func Ignorable(r rune) bool {
	return r == 0 || unicode.In(r, unicode.Cf, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point)
}
