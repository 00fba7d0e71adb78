package check

import (
	"slices"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check/vocab"
)

// Builtin is a word of the language's vocabulary (package vocab) where the
// program uses it: a setting's name, a milestone kind or outcome, a Backoff
// factory or member, a TimeSpan unit, an attribute, a security operation.
// Info.Words lists each identifier the checker recognised as such a word
// with its Builtin (when CheckWith's Options.Info asks for them), so the
// editor's hover explains `MaxAttempts` from the same table the checker
// read, and never resolves the word again. There is one Builtin per word,
// shared by every program (read-only).
type Builtin struct{ Word vocab.Word }

// Name is nil: a builtin is declared by the language, not the program.
func (*Builtin) Name() *ast.Ident { return nil }
func (*Builtin) object()          {}

type builtinKey struct {
	kind vocab.WordKind
	name string
}

// builtins holds one Builtin per vocabulary word.
var builtins = func() map[builtinKey]*Builtin {
	m := map[builtinKey]*Builtin{}
	for _, w := range vocab.Words() {
		m[builtinKey{w.Kind, w.Name}] = &Builtin{Word: w}
	}
	return m
}()

// BuiltinOf returns the Builtin of the word name of kind k, or nil.
func BuiltinOf(k vocab.WordKind, name string) *Builtin { return builtins[builtinKey{k, name}] }

// word records that id is the vocabulary word of kind k it spells, if it is
// one. The checker meets most words while it evaluates (policies,
// durations), before the model exists; Check hands the list to Info.Words.
func (c *checker) word(id *ast.Ident, k vocab.WordKind) {
	if id == nil || !c.opt.Info {
		return
	}
	if b := BuiltinOf(k, id.Name); b != nil {
		c.words = append(c.words, WordUse{Ident: id, Builtin: b, File: c.file.Name})
	}
}

// setting records id as a setting's name if the context takes it.
func (c *checker) setting(id *ast.Ident, takes []vocab.Setting) {
	if id != nil && c.opt.Info && slices.ContainsFunc(takes, func(s vocab.Setting) bool { return s.Name == id.Name }) {
		c.word(id, vocab.KindSetting)
	}
}

// WordUse is one identifier that spells a vocabulary word in its place,
// in File. Ident is the tree's, or, for a word the tree holds as part of
// another node (`catch`, a catch's reason, a test statement), one made
// for its range.
type WordUse struct {
	Ident   *ast.Ident
	Builtin *Builtin
	File    string
}
