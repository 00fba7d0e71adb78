package parser

// Place is where in a program an editor asks what may be written: the
// places whose pieces start with a word of the grammar table
// (productions.go).
type Place uint8

const (
	PlaceTop        Place = iota // the top of a file: declarations
	PlaceWorkflow                // a workflow's body: its members
	PlaceState                   // a state's body: its items
	PlaceStatements              // a block of statements
)

var placeContexts = [...]context{PlaceTop: ctxTop, PlaceWorkflow: ctxWorkflow, PlaceState: ctxState, PlaceStatements: ctxStmts}

// StartWords lists the words that start a piece at p, in the grammar
// table's order: `enum`, `entity`, `workflow`, `test` at the top. The
// language server's completion offers them, so it and the parser cannot
// disagree about what starts what.
func StartWords(p Place) []string {
	if int(p) >= len(placeContexts) {
		return nil
	}
	items := grammar[placeContexts[p]].items
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.word
	}
	return out
}
