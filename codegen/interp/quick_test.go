package interp_test

import (
	"context"
	"os"
	"testing"

	"github.com/wfc-lang/wfc/check/pipeline"
	"github.com/wfc-lang/wfc/codegen/interp"
	"github.com/wfc-lang/wfc/parser"
)

func TestQuick(t *testing.T) {
	src, _ := os.ReadFile("../../testdata/examples/jobflow/jobflow.wf")
	r := pipeline.Run(context.Background(), []parser.Source{{Name: "jobflow.wf", Src: string(src)}}, pipeline.Options{})
	wf := r.Checked.Program.Workflows[0]
	start := wf.Events[0]
	tr, err := interp.Run(r.Checked, wf, interp.Scenario{Actions: []interp.Action{{At: 600000000, Kind: interp.ActSend, Event: start}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + tr.String())
}
