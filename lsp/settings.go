package lsp

import (
	"github.com/wfc-lang/wfc/config"
	"github.com/wfc-lang/wfc/diag"
)

// projectSettings gives the pipeline each file's wfc.json (the nearest one
// above it), as `wfc check` does. The files are read afresh for every check,
// so an edit to wfc.json shows at the next one; a settings file that cannot
// be read or is invalid is left out (the command line names it).
func projectSettings() func(file string) diag.Settings {
	finder := config.NewFinder()
	return func(file string) diag.Settings {
		s, _, _ := finder.For(file)
		return s
	}
}
