package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// exitMemory is the worker's exit status when a build needed more memory than it may use.
const exitMemory = 3

// memoryWatch bounds the memory the worker holds (what the Go runtime has mapped and not given
// back) while it builds, on every platform: Go's collector works hard below the limit (its soft
// limit), and a build that still needs more ends the worker with exitMemory and a line on standard
// error, which the JVM reports as the build's memory limit. A limit the kernel enforces
// (limitMemory, on Linux) stands behind it for an allocation too large to be seen in time.
type memoryWatch struct {
	limit int64
}

var memory memoryWatch

// memoryExceeded ends the worker when a build needs more than limit; the one-shot mode
// (oneshot.go) says it as the command line says it instead.
var memoryExceeded = func(limit int64) {
	fmt.Fprintf(os.Stderr, "%s: out of memory: the build needed more than %d MiB\n", workerName, limit>>20)
	os.Exit(exitMemory)
}

func watchMemory(limit int64) {
	debug.SetMemoryLimit(limit - limit/10)
	memory = memoryWatch{limit: limit}
}

// during looks every 2 ms until stop is called; an idle worker is not woken.
func (m memoryWatch) during() (stop func()) {
	if m.limit <= 0 {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		samples := []metrics.Sample{
			{Name: "/memory/classes/total:bytes"},
			{Name: "/memory/classes/heap/released:bytes"},
		}
		ticker := time.NewTicker(2 * time.Millisecond)
		defer ticker.Stop()
		for {
			select {
			case <-done:
				return
			case <-ticker.C:
			}
			metrics.Read(samples)
			if held := int64(samples[0].Value.Uint64() - samples[1].Value.Uint64()); held > m.limit {
				memoryExceeded(m.limit)
			}
		}
	}()
	return func() { close(done) }
}
