package diag

import (
	"fmt"
	"io"
	"strings"
)

// WriteGitHubNotes writes one `::error` workflow command per notification (a
// path that could not be read), so that GitHub shows it as an annotation
// rather than only in the log:
//
//	::error file=missing.wf,title=wfc::cannot read missing.wf: no such file or directory
func WriteGitHubNotes(w io.Writer, notes []Notification) error {
	var b strings.Builder
	for _, n := range notes {
		fmt.Fprintf(&b, "::error file=%s,title=wfc::%s\n", escapeProperty(n.Path), escapeData(n.Message))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
