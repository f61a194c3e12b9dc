//go:build helm

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkWarmRender renders one chart again and again in this process, as a chart worker
// does, without the frames around it: Helm's own cost, for bench/chart-vs-helm to set beside the
// JVM's warm render. CAPSTAN_BENCH_CHART names the chart's directory. Its sub-benchmarks split a
// render into loading the chart, Helm's render and encoding the answer.
func BenchmarkWarmRender(b *testing.B) {
	dir := os.Getenv("CAPSTAN_BENCH_CHART")
	if dir == "" {
		b.Skip("CAPSTAN_BENCH_CHART names the chart")
	}
	root, chart := filepath.Dir(dir), filepath.Base(dir)
	builder := newBuilder(root)
	// a Kubernetes version named: in a test process Helm's default is v1.20, which some charts refuse
	req := Request{Root: root, Path: chart, Render: &Render{ReleaseName: "bench", Namespace: "bench", KubeVersion: "v1.34.0"}}
	b.Run("whole", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if resp := builder.render(req); resp.Error != nil {
				b.Fatal(resp.Error.Message)
			}
		}
	})
	b.Run("load", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := loadChart(newArtifactFS(root), dir); err != nil {
				b.Fatal(err)
			}
		}
	})
	resp := builder.render(req)
	if resp.Error != nil {
		b.Fatal(resp.Error.Message)
	}
	b.Run("encode", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := json.Marshal(resp); err != nil {
				b.Fatal(err)
			}
		}
	})
}
