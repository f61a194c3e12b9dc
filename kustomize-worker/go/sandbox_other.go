//go:build !linux

package main

import "runtime"

// enterSandbox, where the kernel offers no Landlock: the worker reads only below root by its own
// file system (artifactfs.go) and keeps Go's memory target, but nothing outside the process holds
// it there. The command line says so; the engine runs on Linux.
func enterSandbox(root string, memoryLimit int64, landlockWanted bool) Hello {
	hello := Hello{Problem: "the worker runs unconfined: " + runtime.GOOS + " has no Landlock"}
	limitMemory(memoryLimit, &hello)
	return hello
}

// limitMemory is the worker's own bound; nothing outside the process enforces one here.
func limitMemory(limit int64, hello *Hello) string {
	watchMemory(limit)
	return ""
}
