package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/wfc-lang/wfc/diag"
)

func newExplainCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "explain [CODE]",
		Short: "Explain a diagnostic code, with a wrong and a corrected example; without CODE, list the codes",
		Args:  atMostOne("CODE"),
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			var out []string
			for _, c := range diag.Codes {
				out = append(out, string(c.Code)+"\t"+c.Title)
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return listCodes(stdout)
			}
			code := strings.ToUpper(strings.TrimSpace(args[0]))
			if !strings.HasPrefix(code, "WF") {
				code = "WF" + code
			}
			c, ok := diag.Lookup(diag.ID(code))
			if !ok {
				return fmt.Errorf("unknown code %q: codes run from WF001 to %s (`wfc explain` lists them)", args[0], diag.Codes[len(diag.Codes)-1].Code)
			}
			_, err := io.WriteString(stdout, c.Help())
			return err
		},
	}
}

// listCodes prints one line per code: code, severity, title.
func listCodes(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, c := range diag.Codes {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", c.Code, c.Severity, c.Title)
	}
	return tw.Flush()
}
