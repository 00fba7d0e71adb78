package main

import (
	"fmt"
	"io"

	"github.com/wfc-lang/wfc/diag"
)

// notef writes one `wfc: …` line to standard error. File names and other
// input in it are escaped (diag.Escape): a name holding a line break could
// otherwise print a line the GitHub Actions runner takes for a workflow
// command, which it reads from standard error too.
func notef(w io.Writer, format string, a ...any) {
	fmt.Fprintf(w, "wfc: %s\n", diag.Escape(fmt.Sprintf(format, a...)))
}
