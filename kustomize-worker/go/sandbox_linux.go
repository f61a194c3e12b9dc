//go:build linux

package main

import (
	"fmt"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"github.com/landlock-lsm/go-landlock/landlock"
	llsyscall "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// deniedCalls are the system calls a build never needs and a hostile one would want: network
// sockets, other programs, looking into or out of this process. They fail with EPERM.
var deniedCalls = []string{
	"socket", "socketpair", "execve", "execveat", "ptrace", "process_vm_readv",
	"process_vm_writev", "unshare", "setns", "bpf", "perf_event_open", "userfaultfd",
	"keyctl", "add_key", "request_key",
}

// enterSandbox confines the whole process, every thread it has and will have, before the first
// request is read: Landlock lets it read the tree below root and nothing else, and (ABI 4 and
// later) bind or connect no TCP port; a seccomp filter denies the calls above; no new privileges;
// a hard limit on its memory. What could not be done is said in the Hello; the JVM decides
// whether to build with such a worker.
func enterSandbox(root string, memoryLimit int64) Hello {
	hello := Hello{}
	limitMemory(memoryLimit, &hello)
	abi, err := llsyscall.LandlockGetABIVersion()
	if err != nil || abi < 1 {
		hello.Problem = "the kernel offers no Landlock (it is off, or older than Linux 5.13)"
		return hello
	}
	hello.Landlock = abi
	readOnly := landlock.PathAccess(llsyscall.AccessFSReadFile|llsyscall.AccessFSReadDir, root)
	// Best effort: every right this kernel's ABI knows is handled, and so denied unless granted.
	if err := landlock.V7.BestEffort().Restrict(readOnly); err != nil {
		hello.Problem = "Landlock could not be entered: " + err.Error()
		return hello
	}
	filter := seccomp.Filter{
		NoNewPrivs: true,
		Flag:       seccomp.FilterFlagTSync,
		Policy: seccomp.Policy{
			DefaultAction: seccomp.ActionAllow,
			Syscalls:      []seccomp.SyscallGroup{{Action: seccomp.ActionErrno, Names: deniedCalls}},
		},
	}
	if err := seccomp.LoadFilter(filter); err != nil {
		hello.Problem = "the system call filter could not be loaded: " + err.Error()
		return hello
	}
	hello.Seccomp = true
	hello.Confined = true
	return hello
}

// runtimeSlack is what the Go runtime maps for itself beyond the memory it holds (arena metadata,
// spans, goroutine stacks): a worker that has built nothing maps about 80 MiB of data for 10 MiB
// it touches. The kernel's limit counts mappings, not what is touched.
const runtimeSlack = 128 << 20

// limitMemory puts a hard limit the kernel enforces on the process's data mappings behind the
// worker's own bound (watchMemory): twice the memory a build may use, and the runtime's own
// mappings. Past it an allocation fails and the Go runtime ends the process. RLIMIT_AS would
// count the address space Go reserves without mapping it.
func limitMemory(limit int64, hello *Hello) {
	watchMemory(limit)
	hard := 2*uint64(limit) + runtimeSlack
	if err := unix.Setrlimit(unix.RLIMIT_DATA, &unix.Rlimit{Cur: hard, Max: hard}); err != nil {
		hello.Problem = fmt.Sprintf("the memory limit could not be set: %v", err)
		return
	}
	hello.MemoryLimit = limit
	// No core dump of a build's memory (it may hold decrypted inputs).
	_ = unix.Setrlimit(unix.RLIMIT_CORE, &unix.Rlimit{})
}
