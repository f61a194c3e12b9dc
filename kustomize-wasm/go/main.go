//go:build wasip1

// The kustomize module for the JVM: a WebAssembly reactor that the host initialises once and then
// asks for any number of builds. The host preopens the artifact, read-only, at /artifact.
//
// Protocol: the host calls capstan_alloc(n) for an n-byte request buffer, writes the request JSON
// there, calls capstan_build(n) and reads the response JSON at the address and length packed
// into the returned i64 (address in the high 32 bits). Both buffers stay valid until the next call.
// capstan_prepare does the work every build needs first (kustomize's OpenAPI schema): the host
// calls it once when it makes the memory image that instances start from. capstan_collect, below,
// readies an instance for its next build.
package main

import (
	"encoding/json"
	"runtime"
	"unsafe"
)

const artifactRoot = "/artifact"

var (
	requestBuffer  []byte
	responseBuffer []byte
	instance       *builder
)

func main() {}

//go:wasmexport capstan_prepare
func capstanPrepare() {
	if instance == nil {
		instance = newBuilder(artifactRoot)
	}
	runtime.GC()
}

// capstan_collect runs a full collection; the host calls it before it keeps an instance for
// another build. Between calls the module runs nothing, so a collection left half done would only
// grow the memory; a full one keeps the heap at what the next build starts from (and makes it faster).
//
//go:wasmexport capstan_collect
func capstanCollect() {
	runtime.GC()
}

//go:wasmexport capstan_alloc
func capstanAlloc(size int32) int32 {
	requestBuffer = make([]byte, size)
	if size == 0 {
		return 0
	}
	return int32(uintptr(unsafe.Pointer(unsafe.SliceData(requestBuffer))))
}

//go:wasmexport capstan_build
func capstanBuild(size int32) int64 {
	responseBuffer = handle(requestBuffer[:size])
	requestBuffer = nil
	address := int64(uintptr(unsafe.Pointer(unsafe.SliceData(responseBuffer))))
	return address<<32 | int64(len(responseBuffer))
}

func handle(data []byte) []byte {
	if instance == nil {
		instance = newBuilder(artifactRoot)
	}
	var req Request
	var resp Response
	if err := json.Unmarshal(data, &req); err != nil {
		resp = Response{Error: &Failure{StageRequest, "invalid build request: " + err.Error()}}
	} else {
		resp = instance.build(req)
	}
	out, err := json.Marshal(resp)
	if err != nil {
		out, _ = json.Marshal(Response{Error: &Failure{StageOutput, "cannot encode the build: " + err.Error()}})
	}
	return out
}
