package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/wfc-lang/wfc/check/vocab"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/format"
	"github.com/wfc-lang/wfc/internal/suggest"
)

func newExplainCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "explain [CODE | WORD]",
		Short: "Explain a diagnostic code (with a wrong and a corrected example) or a word of the language; without one, list the codes",
		Long: "Explain a diagnostic code, such as WF301 or 301, with a wrong and a corrected example;\n" +
			"or a word of the language — a keyword (goto, subscribe), a statement (Workflow.Once), a named\n" +
			"argument (retry), a setting (Within), a Backoff factory (Backoff.Linear), a policy member\n" +
			"(MaxAttempts), a TimeSpan unit (TimeSpan.FromSeconds), a milestone, an outcome, an attribute,\n" +
			"a security operation or a word of tests (Send, Expect.End). Without an argument, list the codes.",
		Args: atMostOne("CODE or WORD"),
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			var out []string
			for _, c := range diag.Codes {
				out = append(out, string(c.Code)+"\t"+c.Title)
			}
			for _, w := range vocab.All() {
				out = append(out, w.Qualified+"\t"+w.Kind.String())
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return listCodes(stdout)
			}
			arg := strings.TrimSpace(args[0])
			if ws := vocab.LookupAll(arg); len(ws) > 0 {
				// A name of two words (`Exhausted`) explains both.
				for i, w := range ws {
					if i > 0 {
						if _, err := io.WriteString(stdout, "\n"); err != nil {
							return err
						}
					}
					if err := explainWord(stdout, w); err != nil {
						return err
					}
				}
				return nil
			}
			code := strings.ToUpper(arg)
			if !strings.HasPrefix(code, "WF") {
				code = "WF" + code
			}
			c, ok := diag.Lookup(diag.ID(code))
			if !ok {
				return fmt.Errorf("unknown code or word %q: codes run from WF001 to %s (`wfc explain` lists them); words are the language's keywords, statements, named arguments, settings, Backoff factories and members, TimeSpan units and constants, milestones, outcomes, attributes, security operations, a step's arguments, `catch` and its reasons, and test statements%s",
					args[0], diag.Codes[len(diag.Codes)-1].Code, suggestWord(arg))
			}
			_, err := io.WriteString(stdout, c.HelpWith(layoutExample))
			return err
		},
	}
}

// explainWord prints a vocabulary word: its signature, what it is, where
// it is written and what it means — the words the editor's hover shows.
func explainWord(w io.Writer, word vocab.Word) error {
	example := "For example: " + word.Example
	if strings.Contains(word.Example, "\n") {
		example = "For example:\n\n    " + strings.ReplaceAll(word.Example, "\n", "\n    ")
	}
	_, err := fmt.Fprintf(w, "%s\n  %s, written in %s.\n\n  %s\n\n  %s\n", word.Signature, vocab.Capitalise(word.Kind.String()), word.Context, word.Sentence(), example)
	return err
}

// otherLibraries are words of other retry libraries (Polly, tenacity,
// Temporal, Step Functions) that people ask `wfc explain` for, by lower
// case, with what says the same here: the budget counts attempts, never
// retries, so the nearest spelling would mislead.
var otherLibraries = map[string]string{
	"maxretries":      "a budget is counted in attempts here: `.MaxRetries(n)` is `Backoff.MaxAttempts(n+1)`, and a milestone's `Retries = n` is n retries after its first window",
	"retrycount":      "a budget is counted in attempts here: n retries is `Backoff.MaxAttempts(n+1)`, or a milestone's `Retries = n`",
	"maximumattempts": "Temporal's MaximumAttempts is `Backoff.MaxAttempts(n)`",
}

// suggestWord is "; did you mean X?" for the vocabulary word closest to
// arg, or "". The word is found by its last name (`Backoff.Cap` means the
// member `.Cap`, `TimeSpan.Linear` the factory `Backoff.Linear`), and shown
// as written in full.
func suggestWord(arg string) string {
	name := arg[strings.LastIndex(arg, ".")+1:]
	if meant, ok := otherLibraries[strings.ToLower(name)]; ok {
		return "; " + meant
	}
	byName := map[string]string{}
	var names []string
	for _, w := range vocab.All() {
		if _, dup := byName[w.Name]; !dup {
			byName[w.Name] = w.Qualified
			names = append(names, w.Name)
		}
	}
	if q, ok := byName[name]; ok {
		return fmt.Sprintf("; did you mean %s?", q)
	}
	if best := suggest.Closest(name, names); best != "" {
		return fmt.Sprintf("; did you mean %s?", byName[best])
	}
	return ""
}

// listCodes prints one line per code: code, severity, title.
func listCodes(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, c := range diag.Codes {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", c.Code, c.Severity, c.Title)
	}
	return tw.Flush()
}

// layoutExample lays an example out as `wfc fmt` does; one that does not
// parse (a syntax code's wrong example) is shown as written.
func layoutExample(src string) string {
	if out, err := format.Source("example.wf", src); err == nil {
		return out
	}
	return src
}
