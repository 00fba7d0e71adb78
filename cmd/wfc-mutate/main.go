// Command wfc-mutate measures how much of a package's behaviour its own
// tests guard: it makes one small change at a time to the package's code
// (a mutant), runs the tests, and counts the changes the tests noticed.
// It is a developer's tool, not part of CI: each mutant is a build and a
// test run, so a sample of 100 takes minutes. docs/testing.md has the
// commands and the scores they measured.
//
//	wfc-mutate [flags] PACKAGE
//
// For example, from the repository's root:
//
//	go run ./cmd/wfc-mutate -n 100 -seed 1 -files policy.go,milestone.go,state.go ./check
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/wfc-lang/wfc/cmd/wfc-mutate/mutate"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("wfc-mutate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		cfg     mutate.Config
		files   = fs.String("files", "", "comma-separated `names` of the files to mutate (default: every non-test file)")
		tests   = fs.String("tests", "", "comma-separated `packages` whose tests judge (default: the package's own)")
		asJSON  = fs.Bool("json", false, "print every result as JSON")
		verbose = fs.Bool("v", false, "print every mutant, not only the survivors")
		minimum = fs.Float64("min", 0, "exit 1 if the score is below this `percentage`")
		list    = fs.Bool("list", false, "list the sampled mutants without running them")
	)
	fs.Uint64Var(&cfg.Seed, "seed", 1, "the sample's `seed`")
	fs.IntVar(&cfg.N, "n", 100, "mutants to sample (0: every one)")
	fs.IntVar(&cfg.Jobs, "j", 1, "mutants tested at once")
	fs.StringVar(&cfg.Run, "run", "", "only tests matching `regexp`")
	fs.DurationVar(&cfg.Timeout, "timeout", 5*time.Minute, "the longest one mutant's tests may run")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: wfc-mutate [flags] PACKAGE\n\nMeasures how many small changes to PACKAGE's code its tests notice.\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	cfg.Package = fs.Arg(0)
	cfg.Files = split(*files)
	cfg.Tests = split(*tests)
	cfg.Dir = "."
	sites, err := mutate.Load(cfg)
	if err != nil {
		fmt.Fprintln(stderr, "wfc-mutate:", err)
		return 1
	}
	sample := mutate.Sample(sites, cfg.N, cfg.Seed)
	if *list {
		for _, s := range sample {
			fmt.Fprintln(stdout, rel(s))
		}
		return 0
	}
	if err := mutate.Baseline(ctx, cfg); err != nil {
		fmt.Fprintln(stderr, "wfc-mutate:", err)
		return 1
	}
	fmt.Fprintf(stderr, "%s: %d sites, testing %d (seed %d)\n", cfg.Package, len(sites), len(sample), cfg.Seed)
	results, err := mutate.Run(ctx, cfg, sample, func(r mutate.Result) {
		if !*asJSON && (*verbose || r.Outcome == mutate.Survived) {
			fmt.Fprintf(stdout, "%-9s %s\n", r.Outcome, rel(r.Site))
		}
	})
	if err != nil {
		fmt.Fprintln(stderr, "wfc-mutate:", err)
		return 1
	}
	noticed, judged := mutate.Score(results)
	score := 100 * float64(noticed) / float64(max(judged, 1))
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			Package string          `json:"package"`
			Seed    uint64          `json:"seed"`
			Sites   int             `json:"sites"`
			Score   float64         `json:"score"`
			Results []mutate.Result `json:"results"`
		}{cfg.Package, cfg.Seed, len(sites), score, results}); err != nil {
			fmt.Fprintln(stderr, "wfc-mutate:", err)
			return 1
		}
	} else {
		fmt.Fprintf(stdout, "%s: %d of %d mutants noticed (%.0f%%), %d did not build\n",
			cfg.Package, noticed, judged, score, len(results)-judged)
	}
	if score < *minimum {
		return 1
	}
	return 0
}

func split(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// rel names a site relative to the working directory, as go vet does.
func rel(s mutate.Site) string {
	if wd, err := os.Getwd(); err == nil {
		if r, err := filepath.Rel(wd, s.File); err == nil {
			s.File = r
		}
	}
	return s.String()
}
