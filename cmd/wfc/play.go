package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"time"

	"github.com/spf13/cobra"

	"github.com/wfc-lang/wfc/play"
)

type playFlags struct {
	port   string
	static string
}

// newPlayCmd is `wfc play`: the playground (docs/playground.md), served on
// loopback, or with --static built as a folder for any static host.
func newPlayCmd(stdout, stderr io.Writer) *cobra.Command {
	var f playFlags
	cmd := &cobra.Command{
		Use:   "play [--port N | --static DIR]",
		Short: "Serve the playground in the browser, or build it for a static host",
		Long: `Play serves the playground — an editor with diagnostics, fixes and format,
schedule timelines, state graphs, test runs with their run timelines and
coverage, and a simulator — on http://127.0.0.1:PORT/, answering its
requests with this wfc. It listens on the loopback interface only, answers
only requests addressed to it there, and reads no file: programs live in
the page (and in its links).

With --static DIR it writes the playground as a folder any static host
serves instead, with wfc compiled to WebAssembly (the Go toolchain builds
it: run this inside a clone of wfc), run by the page in a Web Worker.
See docs/playground.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.static != "" {
				if cmd.Flags().Changed("port") {
					return fmt.Errorf("--static builds a folder and serves nothing: leave out --port")
				}
				if err := play.BuildStatic(cmd.Context(), f.static, play.StaticOptions{Log: stderr}); err != nil {
					return err
				}
				fmt.Fprintf(stdout, "wrote the playground to %s: serve the folder with any static file server\n", f.static)
				return nil
			}
			return servePlay(cmd.Context(), f.port, stdout)
		},
	}
	cmd.Flags().StringVar(&f.port, "port", "8370", "the port to listen on at 127.0.0.1 (0 picks a free one)")
	cmd.Flags().StringVar(&f.static, "static", "", "write the playground as a static folder to DIR instead of serving it")
	return cmd
}

// servePlay serves the page until interrupted.
func servePlay(ctx context.Context, port string, stdout io.Writer) error {
	if ctx == nil {
		ctx = context.Background()
	}
	ln, err := play.Listen(port)
	if err != nil {
		return fmt.Errorf("cannot listen on 127.0.0.1:%s: %v (choose another with --port, or 0 for any free port)", port, err)
	}
	_, p, _ := net.SplitHostPort(ln.Addr().String())
	srv := &http.Server{Handler: &play.Server{Port: p}, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stdout, "wfc play: serving the playground at http://127.0.0.1:%s/ (Ctrl-C stops it)\n", p)
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
