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

// collectBelow is how much of the heap's memory may stay unused before the next build; less
// than that, and a full collection runs first.
const collectBelow = 16 << 20

// capstan_collect readies the instance for another build; the host calls it before it keeps an
// instance. Between calls the module runs nothing, so collections left half done would only grow
// its memory (which never shrinks). A full collection (which marks all of kustomize's schema, tens
// of milliseconds) runs only when the garbage of past builds leaves less than collectBelow of the
// memory the heap already has: builds reuse that memory and the instance does not grow.
//
//go:wasmexport capstan_collect
func capstanCollect() {
	var stats runtime.MemStats
	runtime.ReadMemStats(&stats)
	if stats.HeapSys-stats.HeapAlloc > collectBelow {
		return
	}
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
