//go:build !linux

package main

import "fmt"

func probeSyscall(name string) error {
	return fmt.Errorf("system call probes are Linux's")
}
