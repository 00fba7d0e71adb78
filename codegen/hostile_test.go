package codegen

import (
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/internal/scaling"
	"github.com/wfc-lang/wfc/lexer"
	"github.com/wfc-lang/wfc/parser"
)

// TestBaseLimitCoversFractionDigits: the lowering stops doubling an
// exponential base at baseLimit, which is right only if every least wait
// (base·(1-f)) has saturated there. The smallest 1-f a jitter literal can
// give is 10^-lexer.MaxFractionDigits (the lexer reports longer fractions
// as WF004, and the checker drops bad literals).
func TestBaseLimitCoversFractionDigits(t *testing.T) {
	least := new(big.Rat).Mul(baseLimit, new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(10), big.NewInt(lexer.MaxFractionDigits), nil)))
	if least.Cmp(maxTicksRat) <= 0 {
		t.Errorf("baseLimit·10^-%d = %s does not exceed TimeSpan's range", lexer.MaxFractionDigits, least.FloatString(0))
	}
}

// TestFinestJitter: the finest jitter a literal can write keeps its least
// waits exact: they grow from a millisecond and never shrink, and the
// most waits pass TimeSpan's range (WF314's fact), where the table stops.
func TestFinestJitter(t *testing.T) {
	f := "0." + strings.Repeat("9", lexer.MaxFractionDigits)
	s := lower(t, stepProgram("Backoff.Exponential(TimeSpan.FromMilliseconds(1)).MaxAttempts(300).Jitter("+f+")"), Options{})
	if s.Stop == nil || s.facts.overflowAt == 0 {
		t.Errorf("Jitter(%s): stop %+v, overflow at %d: want both", f, s.Stop, s.facts.overflowAt)
	}
	prevMin := Ticks(0)
	for _, r := range s.Rows[1:] {
		if r.Min < prevMin {
			t.Fatalf("row %d: least %d after %d", r.From, r.Min, prevMin)
		}
		prevMin = r.Min
	}
	for _, r := range s.Rows[1:] {
		if r.Min > r.Wait || r.Wait > r.Max {
			t.Fatalf("row %d: least %d, nominal %d, most %d out of order", r.From, r.Min, r.Wait, r.Max)
		}
	}
	// One digit more is WF004, and the policy is not lowered.
	src := stepProgram("Backoff.Exponential(TimeSpan.FromMilliseconds(1)).MaxAttempts(300).Jitter(" + f + "9)")
	prog, ds := parser.Parse([]parser.Source{{Name: "t.wf", Src: src}}, parser.Options{Workers: 1})
	if len(ds) != 1 || ds[0].Code != "WF004" {
		t.Errorf("a 29-digit jitter: want one WF004, got %v", ds)
	}
	res := check.Check(prog)
	for _, d := range res.Diags {
		t.Errorf("the checker adds %s: %s", d.Code, d.Message)
	}
}

// jitterProgram is n durable steps, each with a 28-decimal jitter.
func jitterProgram(n int) string {
	var b strings.Builder
	b.WriteString("workflow W { Initial = A; event Go();\n  state A { subscribe Go(); on Go {\n")
	for i := range n {
		fmt.Fprintf(&b, "    Workflow.Once(\"s%d\", retry: Backoff.Exponential(TimeSpan.FromSeconds(1)).MaxAttempts(100).Jitter(0.%028d)) { X.Y(); }\n", i, 1234567+i)
	}
	b.WriteString("    goto Done; } }\n  terminal Done { } }\n")
	return b.String()
}

// TestLowerLinear: lowering grows linearly with the policies, long
// decimals included.
func TestLowerLinear(t *testing.T) {
	scaling.Linear(t, "jitters of 28 decimals", func(n int) {
		prog, _ := parser.Parse([]parser.Source{{Name: "t.wf", Src: jitterProgram(n)}}, parser.Options{Workers: 1})
		Lower(check.Check(prog), Options{})
	}, 50)
}

func BenchmarkLowerJitters(b *testing.B) {
	src := jitterProgram(200)
	prog, _ := parser.Parse([]parser.Source{{Name: "t.wf", Src: src}}, parser.Options{Workers: 1})
	res := check.Check(prog)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		Lower(res, Options{})
	}
}
