package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// Names a host allows but kustomize's in-memory file system refuses: every one must build, as the
// root's directory, as a directory on spec.path, with and without a kustomization.yaml (without
// one, the build generates it in memory beside the files), and with a replaced file.
var oddNames = []string{"a b", "at@sign", "plus+sign", "tilde~", "per%cent", "com,ma", "é-accent", "名前", "dots..in.name", "a b@c+d~e%f,gé名"}

const oddConfigMap = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: odd}\ndata: {a: b}\n"

func TestAnyNameTheHostAllowsBuilds(t *testing.T) {
	for _, name := range oddNames {
		for _, listed := range []bool{true, false} {
			files := map[string]string{filepath.Join(name, name, "app", "cm.yaml"): oddConfigMap}
			if listed {
				files[filepath.Join(name, name, "app", "kustomization.yaml")] = "resources:\n- cm.yaml\n"
			}
			root := filepath.Join(tree(t, files), name)
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
		root := filepath.Join(tree(t, map[string]string{filepath.Join(name, name, "cm.yaml"): "placeholder: true\n"}), name)
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
