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
// GitHub shows them as annotations on the pull request. Text is escaped as
// the runner expects (`%`, CR and LF in the message; property values also
// `:` and `,`), and then every other control character, which that escaping
// leaves raw, is made visible by Escape: the log shows ANSI sequences.
func WriteGitHub(w io.Writer, ds []Diagnostic) error {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "::%s file=%s,line=%d,col=%d,endLine=%d,endColumn=%d,title=%s::%s\n",
			level(d.Severity), escapeProperty(d.File), d.Range.Start.Line, d.Range.Start.Column,
			d.Range.End.Line, d.Range.End.Column, escapeProperty(string(d.Code)), escapeData(d.Message))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

var (
	dataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

func escapeData(s string) string { return Escape(dataEscaper.Replace(s)) }

func escapeProperty(s string) string { return Escape(propertyEscaper.Replace(s)) }
