package main

import (
	"os"

	"golang.org/x/sys/windows"
)

// framesOut takes the process's standard output for the frames alone: os.Stdout and the standard
// output handle become standard error's, so that nothing else in the process that prints can put
// bytes among the frames.
func framesOut() (*os.File, error) {
	frames := os.Stdout
	if err := windows.SetStdHandle(windows.STD_OUTPUT_HANDLE, windows.Handle(os.Stderr.Fd())); err != nil {
		return nil, err
	}
	os.Stdout = os.Stderr
	return frames, nil
}
