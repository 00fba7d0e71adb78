package parser

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
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
