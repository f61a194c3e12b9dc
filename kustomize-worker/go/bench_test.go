package main

import (
	"os"
	"testing"
)

// BenchmarkWarmBuild builds one path again and again in this process, as a worker does, without
// the frames around it: kustomize's own cost, for applier/bench/build-vs-kustomize to compare the
// JVM's warm build with. CAPSTAN_BENCH_ROOT and CAPSTAN_BENCH_PATH name what to build.
func BenchmarkWarmBuild(b *testing.B) {
	root, path := os.Getenv("CAPSTAN_BENCH_ROOT"), os.Getenv("CAPSTAN_BENCH_PATH")
	if root == "" || path == "" {
		b.Skip("CAPSTAN_BENCH_ROOT and CAPSTAN_BENCH_PATH name the build")
	}
	builder := newBuilder(root)
	for i := 0; i < 100; i++ {
		builder.build(Request{Root: root, Path: path, Output: "objects"})
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if resp := builder.build(Request{Root: root, Path: path, Output: "objects"}); resp.Error != nil {
			b.Fatal(resp.Error.Message)
		}
	}
}
