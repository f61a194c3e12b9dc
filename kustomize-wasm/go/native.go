//go:build !wasip1

// The same build as a native program, for this module's own tests and benchmarks:
// `kustomize-wasm ROOT < request.json > response.json`.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: kustomize-wasm ROOT < request.json")
		os.Exit(2)
	}
	data, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var req Request
	if err := json.Unmarshal(data, &req); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	out, _ := json.Marshal(newBuilder(os.Args[1]).build(req))
	os.Stdout.Write(out)
}
