package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/internal/corpus"
	goldenfile "github.com/wfc-lang/wfc/internal/golden"
)

// checkAll runs src through lexer, parser, checker and both renderers and
// asserts the invariants every input must keep: no panic, every range inside
// its file, JSON valid against the schema.
func checkAll(t testing.TB, name, src string, validate bool) *analysis {
	t.Helper()
	a := analyzeSource(name, src)
	l := &loaded{bytes: diag.Sources{name: src}, order: []string{name}}
	goldenfile.CheckRanges(t, l.bytes, a.diags)
	var text bytes.Buffer
	if err := diag.WriteText(&text, a.diags, l.bytes, diag.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	var js bytes.Buffer
	if err := diag.WriteJSON(&js, a.diags, 1); err != nil {
		t.Fatal(err)
	}
	if !json.Valid(js.Bytes()) {
		t.Fatalf("invalid JSON for %q", src)
	}
	if validate {
		validateJSON(t, "check.schema.json", js.Bytes())
	}
	return a
}

// TestBadInputs: hostile inputs get diagnostics, never a panic, a hang or an
// explosion of output. The large ones are skipped with -short (the race run).
func TestBadInputs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	randomBytes := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.UintN(256))
		}
		return string(b)
	}
	words := []string{"int", "x", ";", "{", "}", "(", ")", "state", "on", "=", "1", `"s"`, ".", "#", "enum", "workflow", "\n"}
	randomWords := func(n int) string {
		var b strings.Builder
		for b.Len() < n {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteByte(' ')
		}
		return b.String()
	}
	var bigEnum strings.Builder
	bigEnum.WriteString("enum Big { ")
	for i := 0; i < 200000; i++ {
		fmt.Fprintf(&bigEnum, "M%d, ", i)
	}
	bigEnum.WriteString("}\n")
	tests := []struct {
		name     string
		src      func() string
		large    bool
		maxDiags int
		code     diag.ID // a code that must be reported ("" for none)
	}{
		{"empty", func() string { return "" }, false, 0, ""},
		{"only comments", func() string { return "// nothing\n/* at all */\n" }, false, 0, ""},
		{"NUL bytes", func() string { return "enum A { B }\x00\x00\nenum C { D }" }, false, 2, "WF003"},
		{"binary", func() string { return randomBytes(1 << 20) }, false, 1, "WF003"},
		{"binary 50 MB", func() string { return randomBytes(50 << 20) }, true, 1, "WF003"},
		{"token soup 50 MB", func() string { return randomWords(50 << 20) }, true, 1 << 20, "WF001"},
		{"200000-member enum on one line", bigEnum.String, true, 0, ""},
		{"100000 nested parentheses", func() string {
			return "entity E { [MaxLength(" + strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000) + ")] string S; }"
		}, false, 1, "WF001"},
		{"100000 unclosed braces", func() string { return "workflow W {" + strings.Repeat(" state S {", 100000) }, false, 200000, "WF001"},
		{"absurd numbers", func() string {
			return "workflow W { Initial = A; event Go(); state A { subscribe Go() { Finished { Within = TimeSpan.FromDays(" +
				strings.Repeat("9", 5000) + "); Retries = 2147483647; Backoff = Backoff.Exponential(TimeSpan.FromDays(10675199)).MaxAttempts(2147483647); Unfinished { goto A; } } } } }"
		}, false, 5, "WF004"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.large && testing.Short() {
				t.Skip("large input skipped in -short mode")
			}
			src := tt.src()
			a := checkAll(t, "bad.wf", src, !tt.large)
			if len(a.diags) > tt.maxDiags {
				t.Errorf("%d diagnostics, want at most %d", len(a.diags), tt.maxDiags)
			}
			if tt.code != "" && count(a.diags, "bad.wf", tt.code) == 0 {
				t.Errorf("no %s among %d diagnostics", tt.code, len(a.diags))
			}
		})
	}
}

// TestGeneratedCorpusIsClean: the benchmark corpus is a valid program.
func TestGeneratedCorpusIsClean(t *testing.T) {
	for _, f := range corpus.Generate(2000, 3) {
		a := checkAll(t, f.Name, f.Src, true)
		if len(a.diags) != 0 {
			t.Fatalf("%s: %v", f.Name, codesOf(a.diags))
		}
	}
}

// FuzzCheck feeds arbitrary bytes through lexer, parser, checker and both
// renderers: never a panic, every range inside the file, JSON always valid.
func FuzzCheck(f *testing.F) {
	for _, c := range diag.Codes {
		f.Add(c.Wrong)
		f.Add(c.Right)
	}
	f.Add(corpus.Example)
	f.Add("enum A { B C }\x00\xff")
	f.Fuzz(func(t *testing.T, src string) {
		checkAll(t, "f.wf", src, false)
	})
}

// FuzzMutations starts from valid programs and applies one mutation (drop a
// line, rename an identifier, swap two tokens): the checker never panics
// and every range stays inside the file.
func FuzzMutations(f *testing.F) {
	seeds := []string{corpus.Example}
	for _, c := range diag.Codes {
		seeds = append(seeds, c.Right)
	}
	for i := range seeds {
		for op := uint8(0); op < 3; op++ {
			f.Add(uint8(i), op, uint16(7), uint16(3))
		}
	}
	f.Fuzz(func(t *testing.T, seed, op uint8, a, b uint16) {
		src := mutate(seeds[int(seed)%len(seeds)], op, int(a), int(b))
		checkAll(t, "m.wf", src, false)
	})
}

// mutate applies mutation op (0 drop a line, 1 rename an identifier, 2 swap
// two tokens) at positions picked by a and b.
func mutate(src string, op uint8, a, b int) string {
	switch op % 3 {
	case 0:
		lines := strings.Split(src, "\n")
		i := a % len(lines)
		return strings.Join(append(lines[:i:i], lines[i+1:]...), "\n")
	case 1:
		fields := strings.FieldsFunc(src, func(r rune) bool {
			return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
		})
		if len(fields) == 0 {
			return src
		}
		old := fields[a%len(fields)]
		return strings.Replace(src, old, old+"x", 1+b%2)
	default:
		toks := strings.Fields(src)
		if len(toks) < 2 {
			return src
		}
		i, j := a%len(toks), b%len(toks)
		toks[i], toks[j] = toks[j], toks[i]
		return strings.Join(toks, " ")
	}
}
