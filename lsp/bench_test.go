package lsp

import (
	"context"
	"fmt"
	"github.com/wfc-lang/wfc/parser"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wfc-lang/wfc/internal/corpus"
	"github.com/wfc-lang/wfc/lsp/protocol"
)

// benchEdits times a one-character edit in the first file of a generated
// workspace, from didChange to the publication of that version's
// diagnostics (no debounce): the server's time per keystroke.
func benchEdits(b *testing.B, lines, files int) {
	gen := corpus.Generate(lines, files)
	ws := map[string]string{}
	var size int
	for _, f := range gen {
		ws[f.Name] = f.Src
		size += len(f.Src)
	}
	c := start(b, ws)
	name, src := gen[0].Name, gen[0].Src
	c.open(name, src)
	c.version(name, 1)
	// Type and delete a space inside the first workflow's body.
	p := at(src, "Autostart", 0, 0)
	b.SetBytes(int64(size))
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime()
	lat := make([]time.Duration, 0, b.N)
	for i := 0; i < b.N; i++ {
		v := int32(i + 2)
		t0 := time.Now()
		if i%2 == 0 {
			c.edit(name, v, protocol.Range{Start: p, End: p}, " ")
		} else {
			c.edit(name, v, protocol.Range{Start: p, End: protocol.Position{Line: p.Line, Character: p.Character + 1}}, "")
		}
		c.version(name, v)
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2])/float64(time.Millisecond), "p50-ms")
	reportCPU(b, cpu)
	reportRSS(b)
}

func BenchmarkEdit2000Lines(b *testing.B)           { benchEdits(b, 2000, 1) }
func BenchmarkEdit100Files100000Lines(b *testing.B) { benchEdits(b, 100000, 100) }

// BenchmarkOpenWorkspace times initialize, reading 100 files of 100,000
// lines, and the first diagnostics of an opened file.
func BenchmarkOpenWorkspace(b *testing.B) {
	gen := corpus.Generate(100000, 100)
	ws := map[string]string{}
	for _, f := range gen {
		ws[f.Name] = f.Src
	}
	b.ReportAllocs()
	var cpu time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		c := startRaw(b, ws)
		b.StartTimer()
		c0 := cpuTime()
		c.initialize()
		c.open(gen[0].Name, gen[0].Src)
		c.version(gen[0].Name, 1)
		cpu += cpuTime() - c0
		b.StopTimer()
		reportRSS(b)
		_ = c.srv.Exit(c.ctx)
		<-c.exit
		c.stop()
		b.StartTimer()
	}
	b.ReportMetric(float64(cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

// cpuTime is the process's user+system CPU time so far. The machine is
// shared, so wall time per op varies with the load; CPU time per op does
// much less.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

// reportRSS reports the process's resident memory (server and client).
func reportRSS(b *testing.B) {
	st, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return
	}
	for _, l := range strings.Split(string(st), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "VmRSS:" {
			kb, _ := strconv.Atoi(f[1])
			b.ReportMetric(float64(kb)/1024, "RSS-MB")
		}
	}
}

// benchAnalyze times the analysis alone after a one-character edit: the
// edited file is parsed again, the program checked, lowered, linted.
func benchAnalyze(b *testing.B, lines, files int) {
	gen := corpus.Generate(lines, files)
	var srcs []parser.Source
	var size int
	for _, f := range gen {
		srcs = append(srcs, parser.Source{Name: f.Name, Src: f.Src})
		size += len(f.Src)
	}
	an := newAnalysis(nil, nil)
	an.run(context.Background(), srcs, nil)
	orig := srcs[0].Src
	b.SetBytes(int64(size))
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime()
	incr := 0
	for i := 0; i < b.N; i++ {
		if i%2 == 0 {
			srcs[0].Src = strings.Replace(orig, "Autostart", " Autostart", 1)
		} else {
			srcs[0].Src = orig
		}
		r := an.run(context.Background(), srcs, nil)
		if r.Err != nil {
			b.Fatal(r.Err)
		}
		incr += len(r.Rechecked)
	}
	reportCPU(b, cpu)
	b.ReportMetric(float64(incr)/float64(b.N), "rechecked-files/op")
}

func BenchmarkAnalyze2000Lines(b *testing.B)           { benchAnalyze(b, 2000, 1) }
func BenchmarkAnalyze100Files100000Lines(b *testing.B) { benchAnalyze(b, 100000, 100) }

// realisticWorkspace is shaped like real programs: n workflows, each in a
// file of its own, and beside each a file of the five enums and entities
// it uses.
func realisticWorkspace(n int) []parser.Source {
	var out []parser.Source
	for i := range n {
		types := fmt.Sprintf(`enum Stage%[1]d { Open, Working, Done, Failed }
enum Verdict%[1]d { Ok, Retry, Reject }
entity Ticket%[1]d {
  [Required, MaxLength(80)] string Title;
  Stage%[1]d Stage;
  security { allow read, create when IsAuthenticated; }
}
entity Person%[1]d { string Name; security { allow read when IsAuthenticated; } }
entity Note%[1]d { string Text; Person%[1]d Author; }
`, i)
		flow := fmt.Sprintf(`workflow Flow%[1]d {
  Tracks = Ticket%[1]d.Stage;
  Autostart = true;
  Initial = Open;
  event Start();
  event Finish(Verdict%[1]d v);
  state Open { subscribe Start(); on Start { goto Working; } }
  state Working {
    subscribe Finish(Verdict%[1]d v) as Worker {
      Finished {
        Within = TimeSpan.FromMinutes(5);
        Backoff = Backoff.Exponential(TimeSpan.FromMinutes(1)).MaxAttempts(3).Cap(TimeSpan.FromMinutes(10));
        Unfinished { goto Failed; }
      }
    }
    on Worker(Verdict%[1]d v) {
      Ok { Workflow.Once("close", retry: Backoff.Fixed(TimeSpan.FromSeconds(5)).MaxAttempts(3)) { Tickets.Close(v); } goto Done; }
      Retry { goto Open; }
      Reject { goto Failed; }
    }
  }
  terminal Done { }
  terminal error Failed { Message = "ticket failed"; }
}
`, i)
		out = append(out, parser.Source{Name: fmt.Sprintf("types%03d.wf", i), Src: types}, parser.Source{Name: fmt.Sprintf("flow%03d.wf", i), Src: flow})
	}
	return out
}

// BenchmarkAnalyzeRealisticEdit: a one-character edit inside one workflow
// of a 100-workflow workspace whose 500 enums and entities live in files of
// their own (issue 17's figure: at most 30 ms of CPU per edit).
func BenchmarkAnalyzeRealisticEdit(b *testing.B) {
	srcs := realisticWorkspace(100)
	var size int
	for _, s := range srcs {
		size += len(s.Src)
	}
	an := newAnalysis(nil, nil)
	an.run(context.Background(), srcs, nil)
	k := 51 // flow025.wf
	orig := srcs[k].Src
	b.SetBytes(int64(size))
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime()
	incr := 0
	for i := 0; i < b.N; i++ {
		if i%2 == 0 {
			srcs[k].Src = strings.Replace(orig, "goto Working;", "goto  Working;", 1)
		} else {
			srcs[k].Src = orig
		}
		r := an.run(context.Background(), srcs, nil)
		if r.Err != nil {
			b.Fatal(r.Err)
		}
		incr += len(r.Rechecked)
	}
	reportCPU(b, cpu)
	b.ReportMetric(float64(incr)/float64(b.N), "rechecked-files/op")
}
