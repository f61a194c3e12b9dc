package main

// nativeOnlyCalls are the allowed calls amd64 has under its own names (arm64 has only the *at and
// pwait forms).
var nativeOnlyCalls = []string{"newfstatat", "epoll_wait"}

// foreignBit marks the x32 ABI's system calls (__X32_SYSCALL_BIT): the same architecture field as
// amd64's, another table of numbers.
const foreignBit = 0x40000000
