package main

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/wfc-lang/wfc/lsp"
)

// stdio joins standard input and output into the server's stream.
type stdio struct {
	io.Reader
	io.Writer
}

func (stdio) Close() error { return nil }

func newLSPCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	var noCache bool
	cmd := &cobra.Command{
		Use:   "lsp",
		Short: "Run the language server (LSP 3.17 over standard input and output)",
		Long: `Lsp runs wfc's language server for editors: diagnostics as you type, the
resolved schedule on hover, fixes as code actions, go to definition, find
references, rename, symbols, inlay hints and completion. It speaks the
Language Server Protocol over standard input and output and logs to
standard error. See docs/lsp.md for editor set-up. It reads and adds to
the cache of ` + "`wfc check`" + ` (see --no-cache), so a workspace the command line
checked opens warm.

It exits 0 after the client's shutdown and exit, and 1 after exit alone.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			lsp.Version = version()
			s := lsp.New(lsp.Options{Log: stderr, Cache: openFileCache(noCache)})
			if code := s.Serve(context.Background(), stdio{stdin, stdout}); code != 0 {
				return exitError{code}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&noCache, "no-cache", false, "neither read nor write the cache ($WFC_CACHE, else the user cache directory)")
	return cmd
}
