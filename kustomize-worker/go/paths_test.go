package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Names a host allows but kustomize's in-memory file system refuses: every one must build, as the
// root's directory, as a directory on spec.path, with and without a kustomization.yaml (without
// one, the build generates it in memory beside the files), and with a replaced file.
var oddNames = []string{"a b", "at@sign", "plus+sign", "tilde~", "per%cent", "com,ma", "é-accent", "名前", "dots..in.name"}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

const oddConfigMap = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: odd}\ndata: {a: b}\n"

func TestAnyNameTheHostAllowsBuilds(t *testing.T) {
	for _, name := range oddNames {
		for _, listed := range []bool{true, false} {
			root := filepath.Join(t.TempDir(), name)
			dir := filepath.Join(root, name, "app")
			writeFile(t, filepath.Join(dir, "cm.yaml"), oddConfigMap)
			if listed {
				writeFile(t, filepath.Join(dir, "kustomization.yaml"), "resources:\n- cm.yaml\n")
			}
			resp := newBuilder(root).build(Request{Root: root, Path: filepath.Join(name, "app"), Output: "yaml"})
			if resp.Error != nil {
				t.Fatalf("%q (kustomization.yaml: %v): %s", name, listed, resp.Error.Message)
			}
			if !strings.Contains(resp.YAML, "name: odd") {
				t.Fatalf("%q (kustomization.yaml: %v): the ConfigMap is missing:\n%s", name, listed, resp.YAML)
			}
		}
	}
}

func TestAReplacedFileUnderAnOddNameIsRead(t *testing.T) {
	for _, name := range oddNames {
		root := filepath.Join(t.TempDir(), name)
		writeFile(t, filepath.Join(root, name, "cm.yaml"), "placeholder: true\n")
		resp := newBuilder(root).build(Request{
			Root: root, Path: name, Output: "yaml",
			Files: map[string][]byte{filepath.Join(name, "cm.yaml"): []byte(oddConfigMap)},
		})
		if resp.Error != nil {
			t.Fatalf("%q: %s", name, resp.Error.Message)
		}
		if !strings.Contains(resp.YAML, "name: odd") {
			t.Fatalf("%q: the replaced file was not read:\n%s", name, resp.YAML)
		}
	}
}
