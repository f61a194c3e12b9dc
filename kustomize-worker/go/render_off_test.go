//go:build !helm

package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// The kustomize worker says in its hello that it renders no chart, and answers a render request
// with an error that says where charts are rendered, and goes on building.
func TestTheKustomizeWorkerDoesNotRenderCharts(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w := startWorker(t, "--root", root)
	if w.hello.Charts {
		t.Fatalf("the kustomize worker says it renders charts: %+v", w.hello)
	}
	resp := w.call(Request{Root: root, Path: ".", Render: &Render{ReleaseName: "r", Namespace: "n"}})
	if resp.Error == nil || resp.Error.Stage != StageRequest ||
		!strings.Contains(resp.Error.Message, "this worker does not render charts") {
		t.Fatalf("render: %+v", resp)
	}
	writeFile(t, filepath.Join(root, "cm.yaml"), []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n"))
	if resp := w.call(Request{Root: root, Path: ".", Output: "yaml"}); resp.Error != nil {
		t.Fatalf("a build after the render request: %+v", resp.Error)
	}
}
