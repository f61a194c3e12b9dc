//go:build linux

package main

import (
	"fmt"
	"strings"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsyscall "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// enterSandbox confines the whole process, every thread it has and will have, before the first
// request is read: a hard limit on its memory; Landlock, which lets it read the tree below root and
// nothing else, and (ABI 4 and later) bind or connect no TCP port; and, whatever became of
// Landlock, the system call filter (seccomp_linux.go) and no new privileges. landlockWanted false
// leaves Landlock out, as on a kernel without it (tests only). The Hello says what was done and
// what was not; the JVM decides whether to build with a worker that is not confined.
func enterSandbox(root string, memoryLimit int64, landlockWanted bool) Hello {
	hello := Hello{}
	var problems []string
	if problem := limitMemory(memoryLimit, &hello); problem != "" {
		problems = append(problems, problem)
	}
	landlockProblem := enterLandlock(root, landlockWanted, &hello)
	filterProblem := ""
	if err := loadSyscallFilter(); err != nil {
		filterProblem = "the system call filter could not be loaded: " + err.Error()
	} else {
		hello.Seccomp = true
	}
	switch {
	case landlockProblem != "" && hello.Seccomp:
		problems = append(problems, landlockProblem+": only the worker's own file system keeps"+
			" builds below the root; its system call filter is in force (no sockets, no programs)")
	case landlockProblem != "":
		problems = append(problems, landlockProblem, filterProblem)
	case filterProblem != "":
		problems = append(problems, filterProblem)
	}
	hello.Confined = landlockProblem == "" && hello.Seccomp
	hello.Problem = strings.Join(problems, "; ")
	return hello
}

// enterLandlock restricts the process to reading the tree below root; it returns what went wrong.
func enterLandlock(root string, wanted bool, hello *Hello) string {
	if !wanted {
		return "Landlock was not entered (--test-skip-landlock)"
	}
	abi, err := llsyscall.LandlockGetABIVersion()
	if err != nil || abi < 1 {
		return "the kernel offers no Landlock (it is off, or older than Linux 5.13)"
	}
	readOnly := landlock.PathAccess(llsyscall.AccessFSReadFile|llsyscall.AccessFSReadDir, root)
	// Best effort: every right this kernel's ABI knows is handled, and so denied unless granted.
	if err := landlock.V7.BestEffort().Restrict(readOnly); err != nil {
		return "Landlock could not be entered: " + err.Error()
	}
	hello.Landlock = abi
	return ""
}

// runtimeSlack is what the Go runtime maps for itself beyond the memory it holds (arena metadata,
// spans, goroutine stacks): a worker that has built nothing maps about 80 MiB of data for 10 MiB
// it touches. The kernel's limit counts mappings, not what is touched.
const runtimeSlack = 128 << 20

// limitMemory puts a hard limit the kernel enforces on the process's data mappings behind the
// worker's own bound (watchMemory): twice the memory a build may use, and the runtime's own
// mappings. Past it an allocation fails and the Go runtime ends the process. RLIMIT_AS would
// count the address space Go reserves without mapping it.
func limitMemory(limit int64, hello *Hello) string {
	watchMemory(limit)
	// No core dump of a build's memory (it may hold decrypted inputs).
	_ = unix.Setrlimit(unix.RLIMIT_CORE, &unix.Rlimit{})
	hard := 2*uint64(limit) + runtimeSlack
	if err := unix.Setrlimit(unix.RLIMIT_DATA, &unix.Rlimit{Cur: hard, Max: hard}); err != nil {
		return fmt.Sprintf("the memory limit could not be set: %v", err)
	}
	hello.MemoryLimit = limit
	return ""
}
