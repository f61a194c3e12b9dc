package main

import (
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// probeSyscall makes one system call the filter must refuse; nil when the kernel let it through.
func probeSyscall(name string) error {
	switch name {
	case "socket":
		fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
		if err == nil {
			unix.Close(fd)
		}
		return err
	case "io_uring_setup":
		var params [120]byte // struct io_uring_params, zeroed
		fd, _, errno := unix.Syscall(unix.SYS_IO_URING_SETUP, 1, uintptr(unsafe.Pointer(&params)), 0)
		if errno != 0 {
			return errno
		}
		unix.Close(int(fd))
		return nil
	case "getpid-i386":
		if !hasSyscall32 {
			return fmt.Errorf("no 32-bit system calls from this processor")
		}
		if pid := syscall32(i386Getpid); int(pid) != os.Getpid() {
			return fmt.Errorf("getpid gave %d", int32(pid))
		}
		return nil
	}
	return fmt.Errorf("unknown system call probe %q", name)
}
