package mutate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/packages"
)

// Config says which package to mutate and which tests judge the mutants.
type Config struct {
	Dir     string        // directory the go command runs in (the module)
	Package string        // the package to mutate, e.g. "./check"
	Files   []string      // base names of the files to mutate; none: every non-test file
	Tests   []string      // packages whose tests judge; none: Package's own
	Run     string        // go test -run pattern; empty: every test
	Seed    uint64        // the sample's seed: the same seed, the same mutants
	N       int           // mutants to sample; 0: every site
	Jobs    int           // mutants built and tested at once; 0: 1
	Timeout time.Duration // per mutant; 0: 5 minutes
}

// Outcome is what the tests made of one mutant.
type Outcome int

const (
	Killed   Outcome = iota // a test failed
	Survived                // every test passed: the tests did not notice
	TimedOut                // the tests did not finish: a hang is noticed too
	NoBuild                 // the mutant does not compile; not scored
)

var outcomeNames = [...]string{"killed", "survived", "timed out", "no build"}

func (o Outcome) String() string { return outcomeNames[o] }

// MarshalText writes the outcome's name in JSON reports.
func (o Outcome) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// Result is one mutant and its outcome.
type Result struct {
	Site
	Outcome Outcome
}

// Score counts the mutants the tests noticed (killed or timed out) and
// those that were judged at all (every mutant that built).
func Score(rs []Result) (noticed, judged int) {
	for _, r := range rs {
		switch r.Outcome {
		case Killed, TimedOut:
			noticed++
			judged++
		case Survived:
			judged++
		}
	}
	return noticed, judged
}

// Load lists every mutation site of the configured package's files, in
// file and source order.
func Load(cfg Config) ([]Site, error) {
	mode := packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
		packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo
	pkgs, err := packages.Load(&packages.Config{Mode: mode, Dir: cfg.Dir}, cfg.Package)
	if err != nil {
		return nil, err
	}
	if len(pkgs) != 1 {
		return nil, fmt.Errorf("%s: names %d packages; name one", cfg.Package, len(pkgs))
	}
	p := pkgs[0]
	if len(p.Errors) > 0 {
		return nil, fmt.Errorf("%s: %v", cfg.Package, p.Errors[0])
	}
	var sites []Site
	for _, f := range p.Syntax {
		name := p.Fset.File(f.Pos()).Name()
		base := filepath.Base(name)
		if strings.HasSuffix(base, "_test.go") || ast.IsGenerated(f) {
			continue
		}
		if len(cfg.Files) > 0 && !slices.Contains(cfg.Files, base) {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		sites = append(sites, Sites(p.Fset, f, src, p.TypesInfo)...)
	}
	slices.SortStableFunc(sites, func(a, b Site) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		return a.Start - b.Start
	})
	return sites, nil
}

// Sample picks n of the sites with a generator seeded by seed, so a run
// can be repeated exactly; the picked sites keep their source order.
func Sample(sites []Site, n int, seed uint64) []Site {
	if n <= 0 || n >= len(sites) {
		return sites
	}
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	idx := r.Perm(len(sites))[:n]
	slices.Sort(idx)
	out := make([]Site, n)
	for i, k := range idx {
		out[i] = sites[k]
	}
	return out
}

// Baseline runs the judging tests on the unchanged code. A mutation run
// means nothing if they already fail.
func Baseline(ctx context.Context, cfg Config) error {
	out, err := goTest(ctx, cfg, "")
	if err != nil {
		return fmt.Errorf("the tests fail without any mutant:\n%s", tail(out, 20))
	}
	return nil
}

// Run builds and tests each mutant through an overlay, calling done with
// each result as it comes (from one goroutine at a time), and returns the
// results in the order of sites.
func Run(ctx context.Context, cfg Config, sites []Site, done func(Result)) ([]Result, error) {
	tmp, err := os.MkdirTemp("", "wfc-mutate-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	results := make([]Result, len(sites))
	jobs := max(cfg.Jobs, 1)
	var (
		mu    sync.Mutex
		wg    sync.WaitGroup
		first error
		next  = make(chan int)
	)
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				r, err := runOne(ctx, cfg, sites[i], filepath.Join(tmp, fmt.Sprint(i)))
				mu.Lock()
				if err != nil && first == nil {
					first = err
				}
				results[i] = r
				if err == nil && done != nil {
					done(r)
				}
				mu.Unlock()
			}
		}()
	}
	for i := range sites {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if first == nil {
		first = ctx.Err()
	}
	return results, first
}

func runOne(ctx context.Context, cfg Config, s Site, dir string) (Result, error) {
	r := Result{Site: s}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return r, err
	}
	src, err := os.ReadFile(s.File)
	if err != nil {
		return r, err
	}
	mutant := filepath.Join(dir, filepath.Base(s.File))
	if err := os.WriteFile(mutant, s.Apply(src), 0o644); err != nil {
		return r, err
	}
	overlay, err := json.Marshal(map[string]map[string]string{"Replace": {s.File: mutant}})
	if err != nil {
		return r, err
	}
	ov := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(ov, overlay, 0o644); err != nil {
		return r, err
	}
	out, err := goTest(ctx, cfg, ov)
	var exit *exec.ExitError
	switch {
	case err == nil:
		r.Outcome = Survived
	case errors.Is(err, context.DeadlineExceeded):
		r.Outcome = TimedOut
	case ctx.Err() != nil:
		return r, ctx.Err()
	case !errors.As(err, &exit):
		return r, err
	case bytes.Contains(out, []byte("[build failed]")) || bytes.Contains(out, []byte("[setup failed]")):
		r.Outcome = NoBuild
	default:
		r.Outcome = Killed
	}
	return r, nil
}

// goTest runs the judging tests, with the overlay file ov if it is set.
func goTest(ctx context.Context, cfg Config, ov string) ([]byte, error) {
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = 5 * time.Minute
	}
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	args := []string{"test", "-count=1", "-failfast", "-vet=off"}
	if ov != "" {
		args = append(args, "-overlay="+ov)
	}
	if cfg.Run != "" {
		args = append(args, "-run="+cfg.Run)
	}
	tests := cfg.Tests
	if len(tests) == 0 {
		tests = []string{cfg.Package}
	}
	cmd := exec.CommandContext(tctx, "go", append(args, tests...)...)
	cmd.Dir = cfg.Dir
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	if tctx.Err() != nil && ctx.Err() == nil {
		return out, context.DeadlineExceeded
	}
	return out, err
}

func tail(out []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
