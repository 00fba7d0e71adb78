// Package picture draws what wfc knows as SVG: a schedule timeline per
// policy consumer (from codegen's schedule tables), a run timeline per test
// (from a transcript's JSON form, docs/schema/transcript.schema.json) and
// each workflow's state graph (from the model, through package graph). The
// command line (`wfc schedule --format svg`, `wfc test --svg DIR`) and the
// playground (package play) draw with the same functions, so a picture in
// the browser is the picture on disk, byte for byte.
//
// Every text that came from a program — names, step names, string
// arguments, messages — is untrusted (a playground link is anyone's
// program): it goes through one function, text, which makes control, bidi
// and invisible characters visible as escapes (diag.Escape, the escaping
// of every other output) and then escapes XML. Nothing from a program ever
// becomes an element, an attribute name, a URL or a style. The pictures
// hold no script, no link and no external reference, so they are safe to
// show inline and to open as files.
//
// Output is deterministic: the same input draws the same bytes. Numbers
// are printed with a fixed number of decimals.
package picture

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/wfc-lang/wfc/diag"
)

// Options tune a picture.
type Options struct {
	// Standalone writes a document of its own: the XML declaration and a
	// <style> element with the colours of light and dark schemes, so the
	// file reads well opened alone or as an <img>. Without it the picture
	// is a fragment for a page that styles the classes itself (the
	// playground's stylesheet, under a strict Content-Security-Policy that
	// allows no inline style).
	Standalone bool
}

// The geometry every picture shares: a monospace font of fontSize pixels,
// whose advance is charWidth, so text widths are known without measuring.
const (
	fontSize  = 12
	charWidth = 7.2 // 0.6 em: the advance of common monospace fonts
	lineH     = 16
)

// styleLight and styleDark are the pictures' colours in light and dark
// schemes; a standalone picture holds both, dark when the reader prefers it.
// The playground's pictures.css is made from them (PageStyle).
const styleLight = `
.wfc-pic{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono",monospace;font-size:12px}
.wfc-pic .bg{fill:#ffffff}
.wfc-pic text{fill:#1f2328}
.wfc-pic .sub,.wfc-pic .tick{fill:#57606a}
.wfc-pic .axis,.wfc-pic .grid{stroke:#d0d7de;stroke-width:1}
.wfc-pic .attempt{fill:#0969da}
.wfc-pic .attempt.last{fill:#8250df}
.wfc-pic .wait{stroke:#57606a;stroke-width:1.5}
.wfc-pic .wait.capped{stroke:#bf8700;stroke-dasharray:4 2}
.wfc-pic .jitter{fill:#0969da;fill-opacity:.18}
.wfc-pic .more{fill:#0969da;fill-opacity:.35}
.wfc-pic .giveup{stroke:#cf222e;stroke-width:2}
.wfc-pic .giveup-band{fill:#cf222e;fill-opacity:.15}
.wfc-pic text.giveup-label{fill:#cf222e}
.wfc-pic .draw{fill:#1a7f37}
.wfc-pic .lane{fill:#f6f8fa}
.wfc-pic .in-state{fill:#ddf4ff;stroke:#54aeff}
.wfc-pic .in-state.terminal{fill:#dafbe1;stroke:#4ac26b}
.wfc-pic .in-state.error{fill:#ffebe9;stroke:#ff8182}
.wfc-pic .window{fill:#fff8c5;stroke:#d4a72c}
.wfc-pic .window.met{fill:#dafbe1;stroke:#1a7f37}
.wfc-pic .event{fill:#0969da}
.wfc-pic .event.reject{fill:#cf222e}
.wfc-pic .take{fill:#8250df}
.wfc-pic .call{fill:#57606a}
.wfc-pic .fail{fill:#cf222e}
.wfc-pic .done{fill:#1a7f37}
.wfc-pic .end{stroke:#1f2328;stroke-width:2}
.wfc-pic .end.error{stroke:#cf222e}
.wfc-pic .node{fill:#f6f8fa;stroke:#57606a}
.wfc-pic .node.initial{stroke-width:2.5}
.wfc-pic .node.terminal{fill:#dafbe1;stroke:#1a7f37}
.wfc-pic .node.error{fill:#ffebe9;stroke:#cf222e}
.wfc-pic .node.unreachable{stroke-dasharray:4 3}
.wfc-pic .node.current{fill:#ddf4ff;stroke:#0969da;stroke-width:3}
.wfc-pic .edge{fill:none;stroke:#57606a;stroke-width:1.2}
.wfc-pic .edge.outcome{stroke-dasharray:5 3}
.wfc-pic .arrow{fill:#57606a}
.wfc-pic path.cross{fill:none;stroke:#cf222e}
.wfc-pic .tick-mark{stroke:#57606a;stroke-width:1.5}
.wfc-pic .tick-mark.track{stroke:#8250df}
.wfc-pic .tick-mark.pass{stroke:#bf8700}
.wfc-pic .tick-mark.other{stroke:#bf3989}
.wfc-pic .end.waiting{stroke-dasharray:3 2}
.wfc-pic .edge-label{fill:#57606a;font-size:10px}
`

const styleDark = `.wfc-pic .bg{fill:#0d1117}
.wfc-pic text{fill:#e6edf3}
.wfc-pic .sub,.wfc-pic .tick{fill:#8d96a0}
.wfc-pic .axis,.wfc-pic .grid{stroke:#30363d}
.wfc-pic .attempt{fill:#4493f8}
.wfc-pic .attempt.last{fill:#ab7df8}
.wfc-pic .wait{stroke:#8d96a0}
.wfc-pic .jitter{fill:#4493f8}
.wfc-pic .more{fill:#4493f8}
.wfc-pic .giveup{stroke:#f85149}
.wfc-pic text.giveup-label{fill:#f85149}
.wfc-pic .lane{fill:#161b22}
.wfc-pic .in-state{fill:#0c2d6b;stroke:#4493f8}
.wfc-pic .in-state.terminal{fill:#04260f;stroke:#3fb950}
.wfc-pic .in-state.error{fill:#490202;stroke:#f85149}
.wfc-pic .window{fill:#3b2e00;stroke:#d29922}
.wfc-pic .window.met{fill:#04260f;stroke:#3fb950}
.wfc-pic .node{fill:#161b22;stroke:#8d96a0}
.wfc-pic .node.terminal{fill:#04260f;stroke:#3fb950}
.wfc-pic .node.error{fill:#490202;stroke:#f85149}
.wfc-pic .node.current{fill:#0c2d6b;stroke:#4493f8}
.wfc-pic .edge{stroke:#8d96a0}
.wfc-pic .arrow{fill:#8d96a0}
.wfc-pic .end{stroke:#e6edf3}
`

const style = styleLight + "@media (prefers-color-scheme:dark){\n" + styleDark + "}\n"

// PageStyle is the stylesheet of the pictures' classes for a page that
// shows them inline and lets its reader choose a scheme: light by default,
// dark when the root element says data-theme="dark", or when the reader's
// system prefers dark and the page was not set to light.
func PageStyle() string {
	auto := strings.ReplaceAll(styleDark, ".wfc-pic", ":root:not([data-theme=light]) .wfc-pic")
	forced := strings.ReplaceAll(styleDark, ".wfc-pic", ":root[data-theme=dark] .wfc-pic")
	return styleLight + "@media (prefers-color-scheme:dark){\n" + auto + "}\n" + forced
}

// canvas collects one picture's elements.
type canvas struct {
	b strings.Builder
}

// text returns s safe to place between tags or inside a quoted attribute:
// unsafe characters made visible (diag.Escape: `\u202e`, `\x1b`, `\xff`),
// XML's special characters as entities, and the two code points XML does
// not allow (U+FFFE, U+FFFF) as escapes.
func text(s string) string {
	s = diag.Escape(s)
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&quot;")
		case '\'':
			b.WriteString("&#39;")
		case 0xfffe, 0xffff:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// width is the drawn width of s (after escaping) in the monospace font.
func textWidth(s string) float64 {
	return float64(utf8.RuneCountInString(diag.Escape(s))) * charWidth
}

// clip shortens s to at most w pixels, ending it with "…" when cut.
func clip(s string, w float64) string {
	s = diag.Escape(s)
	n := int(w / charWidth)
	if n < 1 {
		return ""
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	rs := []rune(s)
	return string(rs[:n-1]) + "…"
}

// num prints a coordinate with at most one decimal, without trailing zeros.
func num(f float64) string {
	s := strconv.FormatFloat(f, 'f', 1, 64)
	s = strings.TrimSuffix(s, ".0")
	if s == "-0" {
		s = "0"
	}
	return s
}

func (c *canvas) printf(format string, a ...any) { fmt.Fprintf(&c.b, format, a...) }

// open writes the root element, with the picture's accessible title and
// description.
func open(out *strings.Builder, opt Options, kind string, w, h float64, title, desc string) {
	if opt.Standalone {
		out.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
	}
	fmt.Fprintf(out, `<svg xmlns="http://www.w3.org/2000/svg" class="wfc-pic wfc-%s" width="%s" height="%s" viewBox="0 0 %s %s" role="img">`,
		kind, num(w), num(h), num(w), num(h))
	out.WriteByte('\n')
	// The first <title> child names the picture and <desc> describes it
	// (SVG-AAM), with no id that two pictures on one page could share.
	fmt.Fprintf(out, "<title>%s</title>\n<desc>%s</desc>\n", text(title), text(desc))
	if opt.Standalone {
		out.WriteString("<style>")
		out.WriteString(style)
		out.WriteString("</style>\n")
		fmt.Fprintf(out, "<rect class=\"bg\" width=\"%s\" height=\"%s\"/>\n", num(w), num(h))
	}
}
