package diag

import (
	"fmt"
	"io"
	"strings"
)

// WriteGitHub writes one GitHub Actions workflow command per diagnostic:
//
//	::error file=a.wf,line=3,col=5,endLine=3,endColumn=9,title=WF101::message
//
// GitHub shows them as annotations on the pull request. The message escapes
// `%`, CR and LF; property values also escape `:` and `,`.
func WriteGitHub(w io.Writer, ds []Diagnostic) error {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "::%s file=%s,line=%d,col=%d,endLine=%d,endColumn=%d,title=%s::%s\n",
			level(d.Severity), escapeProperty(d.File), d.Range.Start.Line, d.Range.Start.Column,
			d.Range.End.Line, d.Range.End.Column, escapeProperty(d.Code), escapeData(d.Message))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
