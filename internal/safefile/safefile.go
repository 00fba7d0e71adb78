// Package safefile reads files that came with untrusted input (a cloned
// repository, a pull request) without letting their type or size hurt the
// reader: only regular files are read, the open never blocks (a FIFO with no
// writer would wait for ever), and the size is checked before a byte is read
// and again while reading (a file can grow between the two). The command
// line (cmd/wfc) and the language server (lsp) read every source through
// it, so both refuse the same files with the same words.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// NotRegularError refuses a FIFO, a device, a socket or a directory where a
// file is read: reading one may block for ever or never end.
type NotRegularError struct{ Mode fs.FileMode }

func (e NotRegularError) Error() string {
	kind := "a special file"
	switch {
	case e.Mode&fs.ModeNamedPipe != 0:
		kind = "a named pipe"
	case e.Mode&fs.ModeSocket != 0:
		kind = "a socket"
	case e.Mode&fs.ModeDevice != 0:
		kind = "a device"
	case e.Mode.IsDir():
		kind = "a directory"
	}
	return "not a regular file (" + kind + ")"
}

// TooLargeError refuses a file larger than the reader's limit.
type TooLargeError struct{ Limit int64 }

func (e TooLargeError) Error() string {
	return fmt.Sprintf("larger than %d bytes, the most read here", e.Limit)
}

// ReadFile reads the regular file name, of at most limit bytes. It opens
// without blocking and checks the type and size on the open file (not on
// the name, which could be swapped in between) before reading a byte.
func ReadFile(name string, limit int64) ([]byte, fs.FileInfo, error) {
	f, err := OpenNoBlock(name)
	if err != nil {
		return nil, nil, unwrap(err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, unwrap(err)
	}
	if !info.Mode().IsRegular() {
		return nil, nil, NotRegularError{info.Mode()}
	}
	if info.Size() > limit {
		return nil, nil, TooLargeError{limit}
	}
	b, err := ReadSized(f, info.Size(), limit)
	return b, info, err
}

// ReadSized reads r whole, at most limit bytes, into one buffer of size
// bytes (r's size as it was stat'ed) plus one, so that a file that grew
// since is still read whole, through the same limit. io.ReadAll starts at
// 512 bytes and doubles, which for 100,000 small files was half the garbage
// of reading them.
func ReadSized(r io.Reader, size, limit int64) ([]byte, error) {
	b := make([]byte, 0, max(0, min(size, limit))+1)
	lr := io.LimitReader(r, limit+1)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // the file grew: let append grow it
		}
		n, err := lr.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, unwrap(err)
		}
	}
	if int64(len(b)) > limit {
		return nil, TooLargeError{limit}
	}
	return b, nil
}

func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// OpenNoBlock opens name for reading without blocking (where the OS can):
// opening a FIFO with no writer waits for ever otherwise. Regular files
// read as usual.
func OpenNoBlock(name string) (*os.File, error) { return openNoBlock(name) }
