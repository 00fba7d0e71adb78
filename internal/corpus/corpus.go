// Package corpus generates large, valid programs for benchmarks and
// stress tests: the complete example program repeated with its
// identifiers renamed, so every copy declares its own names.
package corpus

import (
	"fmt"
	"regexp"
	"strings"
)

// Example is the example program (testdata/examples/jobflow/jobflow.wf).
const Example = `enum JobStage { Queued, Running, Escalated }
enum Decision { Ok }

[Principal] entity Person {
  [Required, MaxLength(80)] string Name;
  security { allow read, create when IsAuthenticated; }
}

entity Job {
  [Required, MaxLength(120)] string Title;
  JobStage Stage;
  security { allow read, create, update when IsAuthenticated; }
}

workflow JobFlow {
  Tracks    = Job.Stage;
  Autostart = true;
  Initial   = Queued;

  event Start();
  event Complete(Decision decision);

  state Queued { subscribe Start(); on Start { goto Running; } }

  state Running {
    subscribe Complete(Decision decision) as Worker {
      Finished {
        Within  = TimeSpan.FromMinutes(5);
        Backoff = Backoff.Exponential(TimeSpan.FromMinutes(5)).MaxAttempts(3).Cap(TimeSpan.FromHours(1));
        Exhausted  { }
        Unfinished { goto Escalated; }
      }
    }
    on Worker(Decision decision) { default { goto Escalated; } }
  }

  terminal error Escalated { Message = "job escalated"; }
}
`

// The global names of the example: renamed in each copy.
var globals = regexp.MustCompile(`\b(JobStage|Decision|Person|Job|JobFlow)\b`)

// exampleLines is the number of lines of one copy.
var exampleLines = strings.Count(Example, "\n") + 1

// copyN returns copy n of the example with its global names suffixed; only
// the first copy keeps [Principal] (a program has one).
func copyN(n int) string {
	s := globals.ReplaceAllString(Example, fmt.Sprintf("${1}%d", n))
	if n > 0 {
		s = strings.Replace(s, "[Principal] ", "", 1)
	}
	return s + "\n"
}

// File is one generated file.
type File struct {
	Name string
	Src  string
}

// Generate returns about lines lines of valid program split over files files.
func Generate(lines, files int) []File {
	if files < 1 {
		files = 1
	}
	copies := max(files, lines/exampleLines)
	out := make([]File, 0, files)
	n := 0
	for f := 0; f < files; f++ {
		// Spread the copies evenly: file f gets copies [f*c/files, (f+1)*c/files).
		end := (f + 1) * copies / files
		var b strings.Builder
		for ; n < end; n++ {
			b.WriteString(copyN(n))
		}
		out = append(out, File{Name: fmt.Sprintf("gen%04d.wf", f), Src: b.String()})
	}
	return out
}

// Shared is the file of declarations that GenerateShared's users read.
const Shared = `enum SharedStage { Open, Working, Done }

entity SharedTicket {
  [Required, MaxLength(80)] string Title;
  SharedStage Stage;
}
`

// sharedUser is the workflow each user file adds: it tracks
// SharedTicket.Stage, so it reads SharedTicket and SharedStage.
func sharedUser(n int) string {
	return fmt.Sprintf(`
workflow SharedFlow%d {
  Tracks  = SharedTicket.Stage;
  Initial = Open;
  event Go();
  state Open { subscribe Go(); on Go { goto Working; } }
  state Working { subscribe Go(); on Go { goto Done; } }
  terminal Done { }
}
`, n)
}

// GenerateShared is Generate with one more file, shared.wf (Shared), whose
// declarations the first users files read: editing it changes what those
// files mean, and only those.
func GenerateShared(lines, files, users int) []File {
	out := Generate(lines, files)
	for i := 0; i < users && i < len(out); i++ {
		out[i].Src += sharedUser(i)
	}
	return append(out, File{Name: "shared.wf", Src: Shared})
}
