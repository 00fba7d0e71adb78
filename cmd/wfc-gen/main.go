// Command wfc-gen writes a generated corpus (internal/corpus) for measuring
// wfc: the example program repeated with renamed identifiers.
//
//	go run ./cmd/wfc-gen -lines 100000 -files 100 -out /tmp/corpus
//	go run ./cmd/wfc-gen -shared 10 -out /tmp/shared   # and shared.wf, read by 10 files
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
	shared := flag.Int("shared", 0, "with N > 0, also write shared.wf, whose declarations the first N files read")
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "wfc-gen:", err)
		os.Exit(1)
	}
	gen := corpus.Generate(*lines, *files)
	if *shared > 0 {
		gen = corpus.GenerateShared(*lines, *files, *shared)
	}
	for _, f := range gen {
		if err := writeAtomic(filepath.Join(*out, f.Name), f.Src); err != nil {
			fmt.Fprintln(os.Stderr, "wfc-gen:", err)
			os.Exit(1)
		}
	}
}

// writeAtomic writes a temporary file beside path and renames it over path,
// so an interrupted run never leaves a half-written file.
func writeAtomic(path, data string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	if _, err := tmp.WriteString(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}
