package main

// hasSyscall32: amd64 can make a 32-bit (i386) system call through int 0x80.
const hasSyscall32 = true

// i386Getpid is getpid's number in the i386 table (amd64's 20 is writev).
const i386Getpid = 20

// syscall32 makes the i386 system call number through int 0x80, without arguments.
func syscall32(number uintptr) uintptr
