package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/wfc-lang/wfc/picture"
	"github.com/wfc-lang/wfc/wftest"
)

// runPictures writes each test's run timeline (`wfc test --svg DIR`):
// DIR/NAME.svg, NAME the test's name with every character but letters,
// digits, `-` and `_` made `_` (and a number added when two names come out
// the same), each file written whole through a rename.
type runPictures struct {
	dir  string
	used map[string]bool
}

func newRunPictures(dir string) (*runPictures, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("--svg: %v", err)
	}
	return &runPictures{dir: dir, used: map[string]bool{}}, nil
}

// fileName is the file a test's picture goes to.
func (p *runPictures) fileName(test string) string {
	var b strings.Builder
	for _, r := range test {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
		if b.Len() >= 80 {
			break
		}
	}
	base := b.String()
	if base == "" {
		base = "test"
	}
	name := base
	for k := 2; p.used[name]; k++ {
		name = fmt.Sprintf("%s_%d", base, k)
	}
	p.used[name] = true
	return filepath.Join(p.dir, name+".svg")
}

// write draws r's run timeline; a test whose run never happened has none.
func (p *runPictures) write(r *wftest.Result) error {
	if r.Transcript == nil {
		return nil
	}
	js, err := r.Transcript.JSON()
	if err != nil {
		return err
	}
	var b strings.Builder
	if err := picture.Run(&b, js, picture.RunOptions{Options: picture.Options{Standalone: true}, States: picture.StatesOf(r.Test.Workflow)}); err != nil {
		return err
	}
	name := p.fileName(r.Test.Name)
	tmp, err := os.CreateTemp(p.dir, ".wfc-svg-*")
	if err != nil {
		return fmt.Errorf("--svg: %v", err)
	}
	_, err = tmp.WriteString(b.String())
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), name)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("--svg: %v", err)
	}
	return nil
}
