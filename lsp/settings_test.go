package lsp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/parser"
)

// TestProjectSettings: the language server honours wfc.json as the command
// line does: the nearest one above each file governs it.
func TestProjectSettings(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("wfc.json", `{"disable": ["WF203"], "error": ["WF201"]}`)
	write("sub/wfc.json", `{}`)
	const flow = "workflow %s { Initial = A; event Go(); event Ping();\n" +
		"  state A { subscribe Go(); subscribe Ping(); on Go { goto Done; } }\n" +
		"  state B { subscribe Go(); on Go { goto Done; } }\n  terminal Done { } }\n"
	top := write("a.wf", fmt.Sprintf(flow, "T"))
	sub := write("sub/b.wf", fmt.Sprintf(flow, "S"))
	r := newAnalysis(nil, nil).run(context.Background(), []parser.Source{
		{Name: top, Src: fmt.Sprintf(flow, "T")}, {Name: sub, Src: fmt.Sprintf(flow, "S")}}, nil)
	got := map[string]diag.Severity{}
	for _, d := range r.Diagnostics {
		got[filepath.Base(d.File)+" "+string(d.Code)] = d.Severity
	}
	want := map[string]diag.Severity{"a.wf WF201": diag.Error, "b.wf WF201": diag.Warning, "b.wf WF203": diag.Warning}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for k, sev := range want {
		if s, ok := got[k]; !ok || s != sev {
			t.Errorf("%s: got %v (present %v), want %v", k, s, ok, sev)
		}
	}
}
