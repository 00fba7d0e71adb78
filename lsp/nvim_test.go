package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestNeovim runs `wfc lsp` under a real editor: Neovim 0.7 headless opens
// a file with a warning, and its LSP client asks for hover, definition
// and code actions (testdata/nvim_e2e.lua writes the answers as JSON).
// `.ci/run` installs Neovim; the test skips only where nvim is absent.
func TestNeovim(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("nvim is not installed (.ci/run installs it)")
	}
	if testing.Short() {
		t.Skip("builds wfc and starts Neovim")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "wfc")
	build := exec.Command("go", "build", "-o", bin, "github.com/wfc-lang/wfc/cmd/wfc")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	root := filepath.Join(dir, "ws")
	src := strings.Replace(flowWF, ".Cap(TimeSpan.FromHours(1))", ".Cap(TimeSpan.FromHours(1)).Jitter(0)", 1)
	for name, text := range map[string]string{"types.wf": typesWF, "flow.wf": src} {
		if err := os.MkdirAll(root, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hover := at(src, "Finished", 0, 2)
	def := at(src, "Decision decision);", 0, 2)
	action := at(src, "Jitter(0)", 0, 1)
	posJSON := fmt.Sprintf(`{"hover":[%d,%d],"definition":[%d,%d],"action":[%d,%d]}`,
		hover.Line, hover.Character, def.Line, def.Character, action.Line, action.Character)
	out := filepath.Join(dir, "out.json")
	script, _ := filepath.Abs("testdata/nvim_e2e.lua")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-n", "-c", "luafile "+script)
	cmd.Env = append(os.Environ(), "WFC_ROOT="+root, "WFC_OUT="+out, "WFC_BIN="+bin, "WFC_POS="+posJSON, "HOME="+dir)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nvim: %v\n%s", err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Errors      []string
		Diagnostics struct {
			Version     int
			Diagnostics []struct {
				Code            string
				Source          string
				CodeDescription struct{ Href string }
			}
		}
		Hover      struct{ Contents struct{ Kind, Value string } }
		Definition []struct{ URI string }
		CodeAction []struct {
			Title       string
			Kind        string
			IsPreferred bool
		}
	}
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	t.Logf("%s", b)
	if len(res.Errors) > 0 {
		t.Errorf("requests failed: %v", res.Errors)
	}
	if ds := res.Diagnostics.Diagnostics; len(ds) != 1 || ds[0].Code != "WF310" || ds[0].Source != "wfc" || ds[0].CodeDescription.Href == "" || res.Diagnostics.Version != 0 {
		t.Errorf("diagnostics: %+v, want one WF310 from wfc for version 0", res.Diagnostics)
	}
	if !strings.Contains(res.Hover.Contents.Value, "| attempt |") {
		t.Errorf("hover on Finished: %q, want the schedule table", res.Hover.Contents.Value)
	}
	if len(res.Definition) != 1 || !strings.HasSuffix(res.Definition[0].URI, "/types.wf") {
		t.Errorf("definition of Decision: %+v, want types.wf", res.Definition)
	}
	if len(res.CodeAction) == 0 || res.CodeAction[0].Kind != "quickfix" || !res.CodeAction[0].IsPreferred {
		t.Errorf("code actions: %+v, want a preferred quickfix", res.CodeAction)
	}
}
