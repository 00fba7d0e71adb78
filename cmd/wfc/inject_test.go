package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/wfc-lang/wfc/internal/ghrunner"
)

// hostileRunes is every character that must never reach an output raw:
// C0 controls, DEL, C1 controls, bidi controls and the Unicode separators.
func hostileRunes() []rune {
	var rs []rune
	for r := rune(0); r < 0x20; r++ {
		rs = append(rs, r)
	}
	rs = append(rs, 0x7f)
	for r := rune(0x80); r <= 0x9f; r++ {
		rs = append(rs, r)
	}
	rs = append(rs, 0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e,
		0x2066, 0x2067, 0x2068, 0x2069, 0x2028, 0x2029)
	return rs
}

// injection holds lines the GitHub Actions runner would take for workflow
// commands, were they printed raw after a line break: `::` after ASCII and
// Unicode white space (.NET TrimStart strips both), and `##[` anywhere in a
// line, also split by a soft hyphen (which ICU's comparison ignores).
const injection = "\n::warning::injected\n  ::error::injected\n##[error]injected\n" +
	"\u00a0\u2003\u3000::warning::nbsp\nmid ##[warning]mid\n#\u00ad#[error]soft\n::add-mask::x\n"

// nameInjection is injection short enough for a file name (255 bytes).
const nameInjection = "\n::warning::i\n\u3000::error::i\nm##[error]i\n#\u00ad#[error]i\n"

// hostileProgram declares a duplicate step name holding every hostile
// character (written as escapes, so the decoded name holds them raw) and a
// string token holding raw control characters where a name is expected.
func hostileProgram(withErrors bool) string {
	var name strings.Builder
	for _, r := range hostileRunes() {
		fmt.Fprintf(&name, `\u%04x`, r)
	}
	name.WriteString(strings.NewReplacer("\n", `\n`).Replace(injection))
	once := "      Workflow.Once(\"" + name.String() + "\") { Mail.Send(); }\n"
	src := "workflow W {\n  Initial = A;\n  event Go();\n  state A {\n    subscribe Go() as Work;\n    on Work {\n" + once
	if withErrors {
		src += once
	}
	src += "      goto Done;\n      Mail.Send();\n    }\n  }\n  terminal Done { }\n}\n" // a fixable warning
	if withErrors {
		src += "enum E { \"\x1b]0;title\x07\x1b[2J\u202e\u0085\x7f\" }\n"
	}
	return src
}

// hostileFileName holds every hostile character a file name can (not NUL),
// a byte that is not UTF-8, and the injection.
func hostileFileName() string {
	var b strings.Builder
	b.WriteString("x")
	for _, r := range hostileRunes() {
		if r != 0 {
			b.WriteRune(r)
		}
	}
	b.WriteString("\xff" + nameInjection + ".wf")
	return b.String()
}

var ansiSGR = regexp.MustCompile(`\x1b\[[0-9;]*m`)

// assertSafe fails when out holds a hostile character raw or a line that
// reads as a workflow command (github: a line that is not one annotation).
func assertSafe(t *testing.T, what string, out []byte, format string) {
	t.Helper()
	s := string(out)
	if format == "color" {
		s = ansiSGR.ReplaceAllString(s, "") // wfc's own colors
	}
	raw := format == "diff" && strings.HasPrefix(what, "stdout") // patch-exact: only the runner's parsers judge it
	if !raw && !utf8.ValidString(s) {
		t.Errorf("%s: output is not UTF-8", what)
	}
	for i, r := range s {
		if !raw && r != '\n' && (ghrunner.Ignorable(r) || r < 0x20 || r >= 0x7f && r <= 0x9f || r == 0x061c || r == 0x200e || r == 0x200f ||
			r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x2028 || r == 0x2029) {
			t.Errorf("%s: raw U+%04X at byte %d: %q", what, r, i, s[max(0, i-40):min(len(s), i+40)])
			return
		}
	}
	if s == "" {
		return
	}
	// A diagnostic, or a path that could not be read (title=wfc, no region).
	annotation := regexp.MustCompile(`^::(error|warning) file=[^:,]*,(line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=WF\d{3}|title=wfc)::`)
	lines := ghrunner.Lines(s)
	githubOut := format == "github" && strings.HasPrefix(what, "stdout")
	if githubOut {
		for _, line := range lines {
			if !annotation.MatchString(line) {
				t.Errorf("%s: a line that is not one annotation: %q", what, line)
			}
		}
	}
	// Every command the runner would act on must be wfc's own: one
	// annotation per line in the github format, and the stop-commands that
	// frame an untrusted diff (and its resume token).
	cmds := ghrunner.Scan(s)
	for i := 0; i < len(cmds); i++ {
		c := cmds[i]
		switch {
		case githubOut && (c.Name == "error" || c.Name == "warning") && annotation.MatchString(lines[c.Line]):
		case c.Name == "stop-commands" && len(c.Data) >= 32 && i+1 < len(cmds) && cmds[i+1].Name == c.Data && lines[cmds[i+1].Line] == "::"+c.Data+"::":
			i++
		default:
			t.Errorf("%s: the runner acts on line %d, %q (command %q)", what, c.Line+1, lines[c.Line], c.Name)
		}
	}
}

// TestNoInjection feeds every hostile character and a workflow-command line
// through every format, on standard output and standard error: in names
// decoded from string escapes, raw in a string token, in file names (found
// by walking a directory, named on the command line, missing, given as
// --stdin-filename), and in --fix's notes and --diff's headers.
func TestNoInjection(t *testing.T) {
	dir := t.TempDir()
	hostile := hostileFileName()
	for _, name := range []string{hostile, "::warning::injected.wf", "##[error]injected.wf"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(hostileProgram(true)), 0o644); err != nil {
			t.Skipf("the file system refuses the name: %v", err)
		}
	}
	valid := filepath.Join(t.TempDir(), hostile)
	if err := os.WriteFile(valid, []byte(hostileProgram(false)), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing"+hostile)
	t.Chdir(dir) // relative names start the lines of text output
	// Diff bodies are the source itself; in a GitHub runner they are framed
	// by stop-commands, which the runner's parsers must see through.
	t.Setenv("GITHUB_ACTIONS", "true")
	runs := [][]string{
		{"check", "--format", "text", "--color", "never", "."},
		{"check", "--format", "text", "--color", "always", "."},
		{"check", "--format", "json", "."},
		{"check", "--format", "sarif", "."},
		{"check", "--format", "github", "."},
		{"check", "--format", "github", "::warning::injected.wf", hostile, missing},
		{"check", "--format", "text", "--color", "never", "::warning::injected.wf", "##[error]injected.wf"},
		{"check", "--format", "github", "--stdin-filename", hostile, "-"},
		{"check", "--format", "text", "--stdin-filename", "::error::x" + injection, "-"},
		{"check", "--fix", "--format", "github", "."},
		{"check", "--fix", "--diff", valid},
		{"check", "--fix", "--format", "github", valid},
		{"check", "--format", "github", "--" + injection},
		{"schedule", valid},
		{"schedule", "--format", "json", valid},
		{"schedule", "."},
		{"graph", "--format", "mermaid", valid},
		{"graph", "--format", "dot", valid},
		{"graph", "--format", "dot", "."},
		{"export", "temporal", valid},
		{"fmt", "-l", valid, "."},
		{"fmt", "--check", "-l", valid},
		{"fmt", "-d", valid},
		{"fmt", "-d", "--stdin-filename", hostile, "-"},
	}
	for _, args := range runs {
		var stdout, stderr bytes.Buffer
		code := run(args, strings.NewReader(hostileProgram(true)), &stdout, &stderr)
		format := "text"
		for i, a := range args {
			if a == "--format" {
				format = args[i+1]
			}
			if a == "always" {
				format = "color"
			}
			if a == "--diff" || a == "-d" {
				format = "diff"
			}
		}
		what := fmt.Sprintf("wfc %q (exit %d)", args, code)
		if stdout.Len()+stderr.Len() == 0 {
			t.Errorf("%s: no output", what)
		}
		assertSafe(t, "stdout of "+what, stdout.Bytes(), format)
		assertSafe(t, "stderr of "+what, stderr.Bytes(), format)
	}
}

// hostileTests is a program with tests whose names, a step's name, an
// event's string argument and the calls' arguments hold every hostile
// character and workflow-command lines (as string escapes, so the decoded
// texts hold them raw), with expectations that fail, so that `wfc test`
// prints them in every part of its report: test lines, transcripts (-v and
// around a failure), failure messages, the run's error and coverage.
func hostileTests(wf string) string {
	var bad strings.Builder
	for _, r := range hostileRunes() {
		fmt.Fprintf(&bad, `\u%04x`, r)
	}
	bad.WriteString(strings.NewReplacer("\n", `\n`).Replace(injection))
	h := bad.String()
	return strings.ReplaceAll(`workflow @ {
  Autostart = true;
  Initial = A;
  event Go(string note);
  state A {
    subscribe Go(string note);
    on Go(string note) {
      Workflow.Once("`+h+`", retry: Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAttempts(2)) { Mail.Send(note, "`+h+`"); }
      Log.Note(note);
      goto B;
    }
  }
  state B {
    subscribe Go(string note) { Finished { Within = TimeSpan.FromMinutes(1); } }
  }
  terminal Done { }
}

test "@ passes`+h+`" {
  Workflow = @;
  Send(Go("`+h+`"), at: TimeSpan.FromMinutes(1));
  Expect.State(B);
}

test "@ fails`+h+`" {
  Workflow = @;
  Fail("`+h+`");
  Send(Go("`+h+`"), at: TimeSpan.FromMinutes(1));
  Expect.Call(Mail.Send("`+h+`x", "`+h+`"));
  Expect.End(Done);
}
`, "@", wf)
}

// TestTestNoInjection runs `wfc test` on hostileTests in every output form
// (text, -v, -cover, JSON), from a file whose name is hostile too: the
// runner acts on none of its lines, and nothing hostile reaches it raw.
func TestTestNoInjection(t *testing.T) {
	dir := t.TempDir()
	hostile := strings.TrimSuffix(hostileFileName(), ".wf") + "_test.wf"
	if err := os.WriteFile(filepath.Join(dir, hostile), []byte(hostileTests("W")), 0o644); err != nil {
		t.Skipf("the file system refuses the name: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "::error::x_test.wf"), []byte(hostileTests("V")), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for _, args := range [][]string{
		{"test", "."},
		{"test", "-v", "."},
		{"test", "-cover", "."},
		{"test", "-v", "-cover", "."},
		{"test", "--format", "json", "."},
		{"test", "--format", "json", "-v", "-cover", "."},
		{"test", "-run", "x" + injection, "."},
		{"test", hostile},
	} {
		var stdout, stderr bytes.Buffer
		code := run(args, strings.NewReader(""), &stdout, &stderr)
		what := fmt.Sprintf("wfc %q (exit %d)", args, code)
		if os.Getenv("WFC_SHOW") != "" {
			t.Logf("%s\n%s%s", what, stdout.String(), stderr.String())
		}
		if code != 1 && args[1] != "-run" {
			t.Errorf("%s: want exit 1 (a test fails):\n%s%s", what, stdout.String(), stderr.String())
		}
		if args[1] != "-run" && !strings.Contains(stdout.String(), "fails") {
			t.Errorf("%s: the report does not name the failing test:\n%s%s", what, stdout.String(), stderr.String())
		}
		assertSafe(t, "stdout of "+what, stdout.Bytes(), "text")
		assertSafe(t, "stderr of "+what, stderr.Bytes(), "text")
	}
}
