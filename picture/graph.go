package picture

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/graph"
)

// GraphOptions tune a state graph.
type GraphOptions struct {
	Options
	// Current names the state to highlight (the simulator's run is in it).
	Current string
}

// The state graph's geometry.
const (
	nodeH    = 30.0
	stepH    = 14.0
	rankGap  = 64.0
	nodeGap  = 36.0
	minNodeW = 84.0
	maxLabel = 48 // the most characters of an edge label drawn (the whole label is its title)
)

type gnode struct {
	i          int
	rank, pos  int
	x, y, w, h float64
}

// Graph draws one workflow's state graph (graph.Build's view, the drawing
// `wfc graph` writes as Mermaid or DOT) as SVG with a layered layout of
// its own: the initial state on top, each state one rank below the
// nearest state that leads to it, states of a rank ordered to keep edges
// short (barycentres, a few sweeps, ties in source order), edges as
// curves — down the picture for a step forward, around the right side for
// a step back — labelled with the handler, case or milestone outcome that
// takes them. Terminal states are green, terminal error states red,
// unreachable ones dashed; the current state (the simulator's) is
// highlighted.
func Graph(w io.Writer, wf graph.ViewWorkflow, opt GraphOptions) error {
	n := len(wf.States)
	nodes := make([]*gnode, n)
	for i, s := range wf.States {
		h := nodeH + float64(len(s.Steps))*stepH
		wd := textWidth(s.Name) + 28
		for _, st := range s.Steps {
			wd = max(wd, min(textWidth(st), float64(maxLabel)*charWidth)*10/12+20)
		}
		nodes[i] = &gnode{i: i, rank: -1, w: max(wd, minNodeW), h: h}
	}
	// Merge parallel edges: one curve per (from, to), its labels stacked.
	type pair struct{ from, to int }
	var order []pair
	labels := map[pair][]string{}
	outcome := map[pair]bool{}
	for _, e := range wf.Edges {
		p := pair{e.From, e.To}
		if _, ok := labels[p]; !ok {
			order = append(order, p)
		}
		labels[p] = append(labels[p], e.Label)
		outcome[p] = outcome[p] || e.Outcome
	}
	// Ranks: breadth first from the initial state; states it does not
	// reach start ranks of their own, in source order.
	out := make([][]int, n)
	for _, p := range order {
		out[p.from] = append(out[p.from], p.to)
	}
	var queue []int
	for i, s := range wf.States {
		if s.Initial {
			nodes[i].rank = 0
			queue = append(queue, i)
		}
	}
	maxRank := 0
	bfs := func() {
		for len(queue) > 0 {
			i := queue[0]
			queue = queue[1:]
			for _, j := range out[i] {
				if nodes[j].rank < 0 {
					nodes[j].rank = nodes[i].rank + 1
					maxRank = max(maxRank, nodes[j].rank)
					queue = append(queue, j)
				}
			}
		}
	}
	bfs()
	for i := range nodes {
		if nodes[i].rank < 0 {
			nodes[i].rank = maxRank + 1
			maxRank = nodes[i].rank
			queue = append(queue, i)
			bfs()
		}
	}
	ranks := make([][]*gnode, maxRank+1)
	for _, nd := range nodes {
		ranks[nd.rank] = append(ranks[nd.rank], nd)
	}
	// Order within ranks by the barycentre of neighbours in the rank
	// above, then below; stable, so ties keep source order.
	in := make([][]int, n)
	for _, p := range order {
		in[p.to] = append(in[p.to], p.from)
	}
	setPos := func() {
		for _, r := range ranks {
			for k, nd := range r {
				nd.pos = k
			}
		}
	}
	setPos()
	bary := func(nd *gnode, nbrs []int, rank int) (float64, bool) {
		sum, c := 0.0, 0
		for _, j := range nbrs {
			if nodes[j].rank == rank {
				sum += float64(nodes[j].pos)
				c++
			}
		}
		if c == 0 {
			return 0, false
		}
		return sum / float64(c), true
	}
	for sweep := 0; sweep < 4; sweep++ {
		down := sweep%2 == 0
		for ri := range ranks {
			r := ri
			if !down {
				r = len(ranks) - 1 - ri
			}
			key := map[*gnode]float64{}
			for _, nd := range ranks[r] {
				nb, rk := in[nd.i], r-1
				if !down {
					nb, rk = out[nd.i], r+1
				}
				if b, ok := bary(nd, nb, rk); ok {
					key[nd] = b
				} else {
					key[nd] = float64(nd.pos)
				}
			}
			sort.SliceStable(ranks[r], func(a, b int) bool { return key[ranks[r][a]] < key[ranks[r][b]] })
			setPos()
		}
	}
	// Coordinates: each rank a row, centred.
	rowW := make([]float64, len(ranks))
	widest := 0.0
	for r, row := range ranks {
		for k, nd := range row {
			if k > 0 {
				rowW[r] += nodeGap
			}
			rowW[r] += nd.w
		}
		widest = max(widest, rowW[r])
	}
	// Room on the right for the edges that go back up, and their labels.
	back := 0
	for _, p := range order {
		if nodes[p.to].rank <= nodes[p.from].rank {
			back++
		}
	}
	left := margin + 24.0
	width := left + widest + margin + 40 + float64(min(back, 8))*14 + 180
	y := margin + lineH + 24
	for r, row := range ranks {
		x := left + (widest-rowW[r])/2
		rh := 0.0
		for _, nd := range row {
			nd.x, nd.y = x, y
			x += nd.w + nodeGap
			rh = max(rh, nd.h)
		}
		y += rh + rankGap
	}
	height := y - rankGap + margin + 8

	var b strings.Builder
	fmt.Fprintf(&b, "<text x=\"%s\" y=\"%s\" class=\"head\">workflow %s</text>\n", num(margin), num(margin+fontSize), text(wf.Name))
	// Edges first, under the states.
	backK := 0
	for _, p := range order {
		a, z := nodes[p.from], nodes[p.to]
		cls := "edge"
		if outcome[p] {
			cls += " outcome"
		}
		title := strings.Join(labels[p], "\n")
		var d string
		var lx, ly float64
		anchor := "start"
		switch {
		case p.from == p.to:
			x0, y0 := a.x+a.w, a.y+a.h/2
			d = fmt.Sprintf("M%s %sc28 -22 28 22 0 8", num(x0), num(y0-4))
			lx, ly = x0+26, y0-8
		case z.rank > a.rank:
			x0, y0 := a.x+a.w/2, a.y+a.h
			x1, y1 := z.x+z.w/2, z.y
			my := (y0 + y1) / 2
			d = fmt.Sprintf("M%s %sC%s %s %s %s %s %s", num(x0), num(y0), num(x0), num(my), num(x1), num(my), num(x1), num(y1-7))
			lx, ly = (x0+x1)/2+4, my
			if x1 < x0 {
				anchor = "end"
				lx = (x0+x1)/2 - 4
			}
		default:
			// Back or sideways: around the right of both states.
			x0, y0 := a.x+a.w, a.y+a.h/2+4
			x1, y1 := z.x+z.w, z.y+z.h/2-4
			bulge := max(x0, x1) + 30 + float64(backK%8)*14
			backK++
			d = fmt.Sprintf("M%s %sC%s %s %s %s %s %s", num(x0), num(y0), num(bulge), num(y0), num(bulge), num(y1), num(x1+7), num(y1))
			lx, ly = bulge-6, (y0+y1)/2
		}
		fmt.Fprintf(&b, "<g class=\"transition\" data-from=\"%s\" data-to=\"%s\"><title>%s</title><path class=\"%s\" d=\"%s\"/>",
			text(wf.States[p.from].Name), text(wf.States[p.to].Name), text(title), cls, d)
		b.WriteString(arrowHead(a, z, p.from == p.to))
		for k, l := range labels[p] {
			if k == 3 {
				fmt.Fprintf(&b, "<text class=\"edge-label\" x=\"%s\" y=\"%s\" text-anchor=\"%s\">… %d more</text>", num(lx), num(ly+float64(k)*11), anchor, len(labels[p])-3)
				break
			}
			fmt.Fprintf(&b, "<text class=\"edge-label\" x=\"%s\" y=\"%s\" text-anchor=\"%s\">%s</text>", num(lx), num(ly+float64(k)*11), anchor, text(clip(l, maxLabel*charWidth)))
		}
		b.WriteString("</g>\n")
	}
	// The states.
	for _, nd := range nodes {
		s := wf.States[nd.i]
		cls := "node"
		switch s.Kind {
		case ast.Terminal:
			cls += " terminal"
		case ast.TerminalError:
			cls += " terminal error"
		}
		if s.Initial {
			cls += " initial"
		}
		if s.Unreachable || s.Undeclared {
			cls += " unreachable"
		}
		if opt.Current != "" && s.Name == opt.Current {
			cls += " current"
		}
		fmt.Fprintf(&b, "<g class=\"state\" data-state=\"%s\"><title>%s</title>", text(s.Name), text(stateTitle(s)))
		fmt.Fprintf(&b, "<rect class=\"%s\" x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" rx=\"8\"/>", cls, num(nd.x), num(nd.y), num(nd.w), num(nd.h))
		fmt.Fprintf(&b, "<text class=\"state-name\" x=\"%s\" y=\"%s\" text-anchor=\"middle\">%s</text>", num(nd.x+nd.w/2), num(nd.y+19), text(s.Name))
		for k, st := range s.Steps {
			fmt.Fprintf(&b, "<text class=\"edge-label\" x=\"%s\" y=\"%s\" text-anchor=\"middle\">%s</text>", num(nd.x+nd.w/2), num(nd.y+nodeH+float64(k)*stepH+4), text(clip(st, maxLabel*charWidth)))
		}
		if s.Initial {
			fmt.Fprintf(&b, "<circle class=\"arrow\" cx=\"%s\" cy=\"%s\" r=\"5\"/><path class=\"edge\" d=\"M%s %sH%s\"/><path class=\"arrow\" d=\"M%s %sl-7 -4v8z\"/>",
				num(nd.x-20), num(nd.y+nd.h/2), num(nd.x-15), num(nd.y+nd.h/2), num(nd.x-6), num(nd.x), num(nd.y+nd.h/2))
		}
		b.WriteString("</g>\n")
	}
	var o strings.Builder
	open(&o, opt.Options, "graph", width, height, "State graph of workflow "+wf.Name, graphDesc(wf))
	o.WriteString(b.String())
	o.WriteString("</svg>\n")
	_, err := io.WriteString(w, o.String())
	return err
}

// arrowHead draws the head of the edge from a to z, at z.
func arrowHead(a, z *gnode, self bool) string {
	switch {
	case self:
		x, y := a.x+a.w, a.y+a.h/2+4
		return fmt.Sprintf("<path class=\"arrow\" d=\"M%s %sl7 -4v8z\"/>", num(x), num(y))
	case z.rank > a.rank:
		x, y := z.x+z.w/2, z.y
		return fmt.Sprintf("<path class=\"arrow\" d=\"M%s %sl-4 -7h8z\"/>", num(x), num(y))
	default:
		x, y := z.x+z.w, z.y+z.h/2-4
		return fmt.Sprintf("<path class=\"arrow\" d=\"M%s %sl7 -4v8z\"/>", num(x), num(y))
	}
}

func stateTitle(s graph.ViewState) string {
	var parts []string
	switch s.Kind {
	case ast.Terminal:
		parts = append(parts, "terminal state "+s.Name)
	case ast.TerminalError:
		parts = append(parts, "terminal error state "+s.Name)
	default:
		parts = append(parts, "state "+s.Name)
	}
	if s.Initial {
		parts = append(parts, "initial")
	}
	if s.Unreachable {
		parts = append(parts, "unreachable")
	}
	if s.Undeclared {
		parts = append(parts, "declared nowhere")
	}
	return strings.Join(parts, ", ")
}

func graphDesc(wf graph.ViewWorkflow) string {
	names := make([]string, len(wf.States))
	for i, s := range wf.States {
		names[i] = s.Name
	}
	return fmt.Sprintf("%d states (%s) and %d transitions", len(wf.States), strings.Join(names, ", "), len(wf.Edges))
}
