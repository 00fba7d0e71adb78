package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestUsage(t *testing.T) {
	var out, errs bytes.Buffer
	if code := run(context.Background(), nil, &out, &errs); code != 2 {
		t.Errorf("no package: exit %d, want 2", code)
	}
	if !strings.Contains(errs.String(), "usage: wfc-mutate") {
		t.Errorf("no usage on stderr: %q", errs.String())
	}
}

// TestMinimum runs the subject of mutate's tests, whose tests
// notice 1 of its 4 mutants: -min 20 passes, -min 50 exits 1.
func TestMinimum(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and tests each mutant")
	}
	t.Chdir("mutate/testdata/max")
	t.Setenv("GOWORK", "off")
	for _, tc := range []struct {
		min  string
		code int
	}{{"20", 0}, {"50", 1}} {
		var out, errs bytes.Buffer
		code := run(context.Background(), []string{"-n", "0", "-min", tc.min, "."}, &out, &errs)
		if code != tc.code {
			t.Errorf("-min %s: exit %d, want %d\n%s%s", tc.min, code, tc.code, out.String(), errs.String())
		}
		if !strings.Contains(out.String(), ".: 1 of 4 mutants noticed (25%), 0 did not build") {
			t.Errorf("-min %s: summary missing:\n%s", tc.min, out.String())
		}
	}
}

func TestList(t *testing.T) {
	t.Chdir("mutate/testdata/max")
	t.Setenv("GOWORK", "off")
	var out, errs bytes.Buffer
	if code := run(context.Background(), []string{"-list", "-n", "2", "-seed", "3", "."}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if n := strings.Count(out.String(), "\n"); n != 2 {
		t.Errorf("-n 2 listed %d mutants:\n%s", n, out.String())
	}
}
