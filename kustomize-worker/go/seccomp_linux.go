//go:build linux

package main

import (
	"fmt"
	"runtime"
	"syscall"
	"unsafe"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"github.com/elastic/go-seccomp-bpf/arch"
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// allowedCalls are the only system calls a worker makes once it is confined, on every processor:
// what Go's runtime needs (memory, threads, signals for preemption, timers, the processor count it
// checks again while it runs), reading files and directories, and the two pipes of its frames.
// They were collected by tracing the worker through the build corpus and its tests (strace -f).
// Any other call fails with EPERM, so a rare call missing here fails a build softly rather than
// killing it; sockets, programs, io_uring, namespaces, ptrace, bpf, keys and the rest are among
// them.
var allowedCalls = []string{
	// files, directories, the frames' pipes
	"read", "write", "close", "openat", "fstat", "fcntl", "getdents64", "pread64", "lseek",
	"getcwd",
	// memory
	"mmap", "munmap", "madvise",
	// threads, scheduling, time
	"futex", "sched_yield", "sched_getaffinity", "nanosleep", "clock_nanosleep",
	"clock_gettime", "gettimeofday", "restart_syscall", "gettid", "exit", "exit_group",
	// the runtime's network poller (files, pipes and timers; there are no sockets)
	"epoll_pwait", "epoll_ctl", "epoll_create1", "eventfd2", "pipe2",
	// signals: goroutine preemption (tgkill to its own threads) and crash reports
	"rt_sigreturn", "rt_sigaction", "rt_sigprocmask", "sigaltstack", "tgkill", "getpid",
	"getrandom",
}

// threadsOnly is clone's condition: a new thread of this process (CLONE_THREAD), never a new
// process.
var threadsOnly = seccomp.NameWithConditions{
	Name: "clone",
	Conditions: seccomp.ArgumentConditions{
		{Argument: 0, Operation: seccomp.BitsSet, Value: unix.CLONE_THREAD},
	},
}

// syscallPolicy is the allow-list: listed calls pass, every other native call fails with EPERM.
func syscallPolicy() seccomp.Policy {
	return seccomp.Policy{
		DefaultAction: seccomp.ActionErrno,
		Syscalls: []seccomp.SyscallGroup{{
			Action:             seccomp.ActionAllow,
			Names:              append(append([]string{}, allowedCalls...), nativeOnlyCalls...),
			NamesWithCondtions: []seccomp.NameWithConditions{threadsOnly},
		}},
	}
}

// syscallFilter is the program the kernel runs on every system call of the worker. Before the
// allow-list, a call made through another architecture's calling convention (a 32-bit call by
// int 0x80 on amd64, or one of the x32 ABI, whose numbers carry bit 30) kills the process: the
// allow-list's numbers mean other calls there. (go-seccomp-bpf's own check gives such a call the
// default action, and x32 calls ENOSYS.)
func syscallFilter() ([]bpf.Instruction, error) {
	native, err := arch.GetInfo("")
	if err != nil {
		return nil, err
	}
	policy := syscallPolicy()
	allowList, err := policy.Assemble()
	if err != nil {
		return nil, err
	}
	kill := bpf.RetConstant{Val: uint32(seccomp.ActionKillProcess)}
	program := []bpf.Instruction{
		bpf.LoadAbsolute{Off: 4, Size: 4}, // seccomp_data.arch
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: uint32(native.ID), SkipTrue: 1},
		kill,
	}
	if foreignBit != 0 {
		program = append(program,
			bpf.LoadAbsolute{Off: 0, Size: 4}, // seccomp_data.nr
			bpf.JumpIf{Cond: bpf.JumpBitsSet, Val: foreignBit, SkipFalse: 1},
			kill,
		)
	}
	return append(program, allowList...), nil
}

// loadSyscallFilter sets no_new_privs and loads the filter for every thread of the process
// (TSYNC), as go-seccomp-bpf's LoadFilter does for its own programs.
func loadSyscallFilter() error {
	program, err := syscallFilter()
	if err != nil {
		return fmt.Errorf("the system call filter cannot be assembled: %w", err)
	}
	raw, err := bpf.Assemble(program)
	if err != nil {
		return fmt.Errorf("the system call filter cannot be assembled: %w", err)
	}
	filter := make([]unix.SockFilter, len(raw))
	for i, instruction := range raw {
		filter[i] = unix.SockFilter{Code: instruction.Op, Jt: instruction.Jt, Jf: instruction.Jf, K: instruction.K}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	fprog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	thread, _, errno := syscall.RawSyscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER,
		unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&fprog)))
	runtime.KeepAlive(filter)
	if errno != 0 {
		return errno
	}
	if thread != 0 {
		// TSYNC names the thread it could not give the filter to
		return fmt.Errorf("thread %d could not take the filter", thread)
	}
	return nil
}
