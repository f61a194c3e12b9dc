package main

import (
	"encoding/binary"
	"runtime"
	"testing"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"github.com/elastic/go-seccomp-bpf/arch"
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// seccompData is struct seccomp_data as golang.org/x/net/bpf's interpreter reads it: a packet,
// whose words it loads big-endian. The filter loads 32-bit words only, the low word of an argument
// at the lower offset (both processors are little-endian).
func seccompData(nr uint32, auditArch uint32, arg0 uint64) []byte {
	data := make([]byte, 64)
	binary.BigEndian.PutUint32(data[0:], nr)
	binary.BigEndian.PutUint32(data[4:], auditArch)
	binary.BigEndian.PutUint32(data[16:], uint32(arg0))
	binary.BigEndian.PutUint32(data[20:], uint32(arg0>>32))
	return data
}

func TestTheFilterAllowsItsListRefusesTheRestAndKillsForeignCalls(t *testing.T) {
	program, err := syscallFilter()
	if err != nil {
		t.Fatal(err)
	}
	vm, err := bpf.NewVM(program)
	if err != nil {
		t.Fatal(err)
	}
	native, err := arch.GetInfo("")
	if err != nil {
		t.Fatal(err)
	}
	run := func(nr uint32, auditArch uint32, arg0 uint64) uint32 {
		t.Helper()
		action, err := vm.Run(seccompData(nr, auditArch, arg0))
		if err != nil {
			t.Fatal(err)
		}
		return uint32(action)
	}
	call := func(name string) uint32 {
		nr, ok := native.SyscallNames[name]
		if !ok {
			t.Fatalf("%s has no %s", native.Name, name)
		}
		return uint32(nr)
	}
	allow := uint32(seccomp.ActionAllow)
	eperm := uint32(seccomp.ActionErrno) | uint32(unix.EPERM)
	kill := uint32(seccomp.ActionKillProcess)
	for _, name := range append(append([]string{}, allowedCalls...), nativeOnlyCalls...) {
		if got := run(call(name), uint32(native.ID), 0); got != allow {
			t.Errorf("%s: %#x, want allowed", name, got)
		}
	}
	for _, name := range []string{"socket", "socketpair", "io_uring_setup", "io_uring_enter",
		"io_uring_register", "execve", "execveat", "ptrace", "bpf", "unshare", "setns", "clone3",
		"mkdirat", "unlinkat", "connect", "sendto", "keyctl", "process_vm_readv", "userfaultfd"} {
		if got := run(call(name), uint32(native.ID), 0); got != eperm {
			t.Errorf("%s: %#x, want EPERM", name, got)
		}
	}
	if got := run(call("clone"), uint32(native.ID), unix.CLONE_VM|unix.CLONE_THREAD); got != allow {
		t.Errorf("clone of a thread: %#x, want allowed", got)
	}
	if got := run(call("clone"), uint32(native.ID), uint64(unix.SIGCHLD)); got != eperm {
		t.Errorf("clone of a process: %#x, want EPERM", got)
	}
	// Another architecture's calls, even those whose numbers the list allows here.
	for _, foreign := range []*arch.Info{arch.I386, arch.ARM, arch.AARCH64, arch.X86_64} {
		if foreign.ID == native.ID {
			continue
		}
		for _, nr := range []uint32{0, 1, 3, 20, uint32(call("read"))} {
			if got := run(nr, uint32(foreign.ID), 0); got != kill {
				t.Errorf("%s call %d: %#x, want the process killed", foreign.Name, nr, got)
			}
		}
	}
	if runtime.GOARCH == "amd64" {
		if got := run(0x40000000|call("read"), uint32(native.ID), 0); got != kill {
			t.Errorf("x32 read: %#x, want the process killed", got)
		}
	}
}

// Both Linux workers assemble the same list; a name one table lacks would fail its worker's start.
func TestEveryAllowedCallExistsOnBothLinuxProcessors(t *testing.T) {
	for _, table := range []*arch.Info{arch.X86_64, arch.AARCH64} {
		for _, name := range allowedCalls {
			if _, ok := table.SyscallNames[name]; !ok {
				t.Errorf("%s has no system call %s", table.Name, name)
			}
		}
	}
	for _, name := range []string{"newfstatat", "epoll_wait"} {
		if _, ok := arch.X86_64.SyscallNames[name]; !ok {
			t.Errorf("x86_64 has no system call %s", name)
		}
	}
	if _, ok := arch.AARCH64.SyscallNames["fstatat"]; !ok {
		t.Errorf("aarch64 has no system call fstatat")
	}
}
