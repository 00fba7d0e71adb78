package graph

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
)

// MaxLabel is the most characters (code points, before escaping) a label
// shows: a longer one is cut to MaxLabel-1 and ends with "…". Graphviz
// reads no quoted string of 16 KB or more ("syntax error … longer than
// 16384?"), and a name or a step's name may be any length: at 1000
// characters, each escaped to at most 11 bytes, a label stays under it.
// A state whose name is longer is known by its number (labels_test.go,
// docs/graph.md).
const MaxLabel = 1000

// cut is s, cut to MaxLabel characters.
func cut(s string) string {
	if len(s) <= MaxLabel || utf8.RuneCountInString(s) <= MaxLabel {
		return s
	}
	n := 0
	for i := range s {
		if n == MaxLabel-1 {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// mermaidClasses are the Mermaid classes and their looks, in the order
// their definitions are written (only those used are).
var mermaidClasses = [...]struct{ name, style string }{
	{"terminal", "fill:#e6f4ea,stroke:#1e8e3e"},
	{"terminalError", "fill:#fce8e6,stroke:#d93025,color:#a50e0e"},
	{"unreachable", "stroke-dasharray:5 5"},
	{"undeclared", "stroke-dasharray:2 2,color:#888888"},
}

// writeMermaid draws m as one stateDiagram-v2, a composite state per
// workflow. Ids are `w<n>_<State>` (n numbers the workflows), so two
// workflows may share state names; the names shown are the states' own.
func writeMermaid(b *strings.Builder, m *model) {
	b.WriteString("stateDiagram-v2\n")
	var classes []string
	for i, w := range m.workflows {
		fmt.Fprintf(b, "  state \"%s\" as w%d {\n", mermaidText(cut("workflow "+w.name)), i+1)
		for _, s := range w.states {
			fmt.Fprintf(b, "    state \"%s\" as %s\n", mermaidText(cut(s.name)), s.id)
			for _, step := range s.steps {
				fmt.Fprintf(b, "    %s : %s\n", s.id, mermaidText(cut("step "+step)))
			}
		}
		for _, s := range w.states {
			if s.initial {
				fmt.Fprintf(b, "    [*] --> %s\n", s.id)
			}
		}
		for _, e := range w.edges {
			fmt.Fprintf(b, "    %s --> %s : %s\n", e.from.id, e.to.id, mermaidText(cut(e.label)))
		}
		for _, s := range w.states {
			if s.kind != ast.Normal {
				fmt.Fprintf(b, "    %s --> [*]\n", s.id)
			}
			classes = append(classes, mermaidClassesOf(s)...)
		}
		b.WriteString("  }\n")
	}
	for _, c := range mermaidClasses {
		for _, use := range classes {
			if strings.HasSuffix(use, " "+c.name) {
				fmt.Fprintf(b, "  classDef %s %s\n", c.name, c.style)
				break
			}
		}
	}
	for _, c := range classes {
		b.WriteString("  " + c + "\n")
	}
}

func mermaidClassesOf(s *state) []string {
	var out []string
	add := func(c string) { out = append(out, "class "+s.id+" "+c) }
	switch s.kind {
	case ast.Terminal:
		add("terminal")
	case ast.TerminalError:
		add("terminalError")
	}
	if s.unreachable {
		add("unreachable")
	}
	if s.undeclared {
		add("undeclared")
	}
	return out
}

// mermaidText makes text safe in a Mermaid label: control, C1, bidi and
// invisible characters are shown as escapes, as the text output shows them
// (diag.Escape), and characters the diagram syntax gives a meaning to
// (`&`, `#`, `\`…) are written as entity codes (`#35;`).
func mermaidText(s string) string {
	var b strings.Builder
	for _, r := range diag.Escape(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9',
			strings.ContainsRune(" _.,:/()–-·+*'", r), r > 0x7f && r != 0x2028 && r != 0x2029:
			b.WriteRune(r)
		default:
			fmt.Fprintf(&b, "#%d;", r)
		}
	}
	return b.String()
}

// writeDOT draws m as one digraph, a cluster per workflow.
func writeDOT(b *strings.Builder, m *model) {
	b.WriteString(`digraph wfc {
  graph [fontname="Helvetica", fontsize=12, nodesep=0.6];
  node [shape=box, style=rounded, fontname="Helvetica", fontsize=11];
  edge [fontname="Helvetica", fontsize=9];
`)
	for i, w := range m.workflows {
		fmt.Fprintf(b, "\n  subgraph \"cluster_w%d\" {\n    label=%s;\n", i+1, dotString(cut("workflow "+w.name)))
		for _, s := range w.states {
			fmt.Fprintf(b, "    %s [%s];\n", dotString(s.id), dotNode(s))
		}
		for _, s := range w.states {
			if s.initial {
				start := dotString(fmt.Sprintf("w%d start", i+1))
				fmt.Fprintf(b, "    %s [shape=point, width=0.15, label=\"\"];\n    %s -> %s;\n", start, start, dotString(s.id))
			}
		}
		for _, e := range w.edges {
			// The spaces keep neighbouring labels apart.
			fmt.Fprintf(b, "    %s -> %s [label=%s];\n", dotString(e.from.id), dotString(e.to.id), dotString(" "+cut(e.label)+"  "))
		}
		b.WriteString("  }\n")
	}
	b.WriteString("}\n")
}

// dotNode is the attribute list of a state: its name and steps as the
// label, two borders for a terminal state (red for an error), dashed when
// unreachable, dotted when undeclared.
func dotNode(s *state) string {
	label := s.name
	for _, step := range s.steps {
		label += "\nstep " + step
	}
	attrs := []string{"label=" + dotString(cut(label))}
	styles := []string{"rounded"}
	switch s.kind {
	case ast.Terminal:
		attrs = append(attrs, "peripheries=2", `color="#1e8e3e"`)
	case ast.TerminalError:
		attrs = append(attrs, "peripheries=2", `color="#d93025"`, `fontcolor="#a50e0e"`)
	}
	if s.initial {
		attrs = append(attrs, "penwidth=2")
	}
	if s.unreachable {
		styles = append(styles, "dashed")
	}
	if s.undeclared {
		styles = append(styles, "dotted")
	}
	if len(styles) > 1 {
		attrs = append(attrs, "style="+dotString(strings.Join(styles, ",")))
	}
	return strings.Join(attrs, ", ")
}

// dotString quotes s as a DOT string; newlines become `\n` line breaks.
// Each line is escaped as the text output is (diag.Escape: control, C1,
// bidi and invisible characters shown as `\x1b`, `\u202e`…; NUL makes dot
// fail and ESC breaks the SVG), and `&` is written `&amp;`: Graphviz
// decodes entities in labels, so `&#8238;` would turn a label around.
func dotString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			b.WriteString(`\n`)
		}
		for _, r := range diag.Escape(line) {
			switch r {
			case '"', '\\':
				b.WriteByte('\\')
				b.WriteRune(r)
			case '&':
				b.WriteString("&amp;")
			default:
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}
