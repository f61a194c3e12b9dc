//go:build !windows

package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// framesOut takes the process's standard output for the frames alone: they go to a descriptor of
// their own (a duplicate of standard output, closed on exec), and descriptor 1 becomes standard
// error, so that nothing else in the process that prints (kustomize, a library, a panic) can put
// bytes among the frames.
func framesOut() (*os.File, error) {
	fd, err := unix.FcntlInt(1, unix.F_DUPFD_CLOEXEC, 3)
	if err != nil {
		return nil, err
	}
	if err := unix.Dup2(2, 1); err != nil {
		unix.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), "frames"), nil
}
