package parser

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc/check/vocab"
)

// editorGrammar is the VS Code extension's TextMate grammar.
var editorGrammar = filepath.Join("..", "editors", "vscode", "syntaxes", "wfc.tmLanguage.json")

// alternation is a TextMate pattern of words: `\b(a|b|c)\b`.
var alternation = regexp.MustCompile(`^\\b\(([a-z|]+)\)\\b$`)

// TestEditorKeywords: the words the editor grammar's keyword patterns
// (its repository's "keywords": keyword.* and constant.language.* scopes)
// highlight are exactly the reserved words, so a word reserved in the
// grammar table is highlighted as one, and a word it drops is not.
func TestEditorKeywords(t *testing.T) {
	b, err := os.ReadFile(editorGrammar)
	if err != nil {
		t.Fatal(err)
	}
	type capture struct {
		Name string `json:"name"`
	}
	type pattern struct {
		Match         string             `json:"match"`
		Begin         string             `json:"begin"`
		Name          string             `json:"name"`
		BeginCaptures map[string]capture `json:"beginCaptures"`
	}
	var g struct {
		Repository map[string]struct {
			Patterns []pattern `json:"patterns"`
		} `json:"repository"`
	}
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	keywordScope := func(s string) bool {
		return strings.HasPrefix(s, "keyword.") || strings.HasPrefix(s, "constant.language.")
	}
	seen := map[string]bool{}
	for _, p := range g.Repository["keywords"].Patterns {
		re, scope := p.Match, p.Name
		if p.Begin != "" {
			re, scope = p.Begin, p.BeginCaptures["1"].Name
		}
		if !keywordScope(scope) {
			continue
		}
		m := alternation.FindStringSubmatch(re)
		if m == nil {
			t.Errorf("keyword pattern %q is not a list of words `\\b(a|b)\\b`", re)
			continue
		}
		for _, w := range strings.Split(m[1], "|") {
			seen[w] = true
		}
	}
	var got []string
	for w := range seen {
		got = append(got, w)
	}
	slices.Sort(got)
	if want := ReservedWords(); !slices.Equal(got, want) {
		t.Errorf("%s highlights %v as keywords; the reserved words are %v", editorGrammar, got, want)
	}
}

// TestDocsReservedWords: the list of reserved words in the language
// reference (docs/language.md, "Lexical structure") is the table's.
func TestDocsReservedWords(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "language.md"))
	if err != nil {
		t.Fatal(err)
	}
	const marker = "**Reserved words**: `"
	doc := string(b)
	i := strings.Index(doc, marker)
	if i < 0 {
		t.Fatalf("docs/language.md has no %q", marker)
	}
	rest := doc[i+len(marker):]
	got := strings.Fields(rest[:strings.Index(rest, "`")])
	slices.Sort(got)
	if want := ReservedWords(); !slices.Equal(got, want) {
		t.Errorf("docs/language.md lists %v as reserved; the table, %v", got, want)
	}
}

// TestKeywordsExplained: every reserved word, every contextual word of
// the grammar table and `error` (a keyword after `terminal`) has its entry
// in the vocabulary's syntax words, which `wfc explain` explains, and the
// vocabulary names no keyword the grammar does not have.
func TestKeywordsExplained(t *testing.T) {
	want := map[string]bool{"error": true}
	for _, w := range ReservedWords() {
		want[w] = true
	}
	for ctx := range grammar {
		for _, it := range grammar[ctx].items {
			want[it.word] = true
		}
	}
	got := map[string]bool{}
	for _, w := range vocab.All() {
		// `catch` is the vocabulary's (KindCatch, with its reasons).
		if w.Kind == vocab.KindKeyword || w.Kind == vocab.KindCatch {
			got[w.Name] = true
		}
	}
	for w := range want {
		if !got[w] {
			t.Errorf("keyword %q has no entry in check/vocab (syntax.go): `wfc explain %s` would not know it", w, w)
		}
	}
	for w := range got {
		if !want[w] {
			t.Errorf("check/vocab explains a keyword %q the grammar does not have", w)
		}
	}
}
