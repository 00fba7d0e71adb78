// Command wfc-gen writes a generated corpus (internal/corpus) for measuring
// wfc: the example of LANGUAGE.md §1 repeated with renamed identifiers.
//
//	go run ./cmd/wfc-gen -lines 100000 -files 100 -out /tmp/corpus
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/wfc-lang/wfc/internal/corpus"
)

func main() {
	lines := flag.Int("lines", 100000, "about how many lines to write")
	files := flag.Int("files", 100, "how many files to split them over")
	out := flag.String("out", "corpus", "directory to write into")
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "wfc-gen:", err)
		os.Exit(1)
	}
	for _, f := range corpus.Generate(*lines, *files) {
		if err := os.WriteFile(filepath.Join(*out, f.Name), []byte(f.Src), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "wfc-gen:", err)
			os.Exit(1)
		}
	}
}
