//go:build unix

package safefile

import (
	"os"
	"syscall"
)

func openNoBlock(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
