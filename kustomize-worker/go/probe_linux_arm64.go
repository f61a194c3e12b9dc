package main

// hasSyscall32: a 64-bit arm64 process cannot make a 32-bit system call.
const hasSyscall32 = false

const i386Getpid = 0

func syscall32(uintptr) uintptr { return 0 }
