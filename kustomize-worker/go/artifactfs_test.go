package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
)

// tree makes a directory of files (path → content) and returns its absolute, link-free path.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestOnlyRegularFilesAndDirectoriesBelowTheRootExist(t *testing.T) {
	outside := tree(t, map[string]string{"secret.yaml": "token: t0ps3cret"})
	root := tree(t, map[string]string{
		"app/cm.yaml":       "kind: ConfigMap",
		"app/.git/config":   "[core]",
		"sub/.git":          "gitdir: ../.git/modules/sub",
		"shared/base/a.yml": "kind: A",
	})
	links := map[string]string{
		"app/stolen.yaml":  filepath.Join(outside, "secret.yaml"),
		"app/relative.yml": "../../" + filepath.Base(outside) + "/secret.yaml",
		"app/base":         "../shared/base",
		"app/loop":         ".",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(root, "app/pipe.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A device file (as /dev/zero: major 1, minor 5) where the test may make one, as root.
	device := syscall.Mknod(filepath.Join(root, "app/zero.yaml"), syscall.S_IFCHR|0o644, 1<<8|5) == nil
	a := newArtifactFS(root)
	for _, missing := range []string{
		"app/stolen.yaml", "app/relative.yml", "app/base", "app/base/a.yml", "app/loop/cm.yaml",
		"app/pipe.yaml", "app/.git", "app/.git/config", "../" + filepath.Base(outside) + "/secret.yaml",
		filepath.Join(outside, "secret.yaml"), "/etc/hostname",
	} {
		path := missing
		if !filepath.IsAbs(path) {
			path = filepath.Join(root, missing)
		}
		if a.Exists(path) {
			t.Errorf("%s exists for the build", missing)
		}
		if _, err := a.ReadFile(path); err == nil || !strings.Contains(err.Error(), "no such file or directory") {
			t.Errorf("%s: read gave %v", missing, err)
		}
	}
	if device && a.Exists(filepath.Join(root, "app/zero.yaml")) {
		t.Error("a device file exists for the build")
	}
	names, err := a.ReadDir(filepath.Join(root, "app"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(names, []string{"cm.yaml"}) {
		t.Errorf("app lists %v", names)
	}
	if data, err := a.ReadFile(filepath.Join(root, "sub/.git")); err != nil || string(data) != "gitdir: ../.git/modules/sub" {
		t.Errorf("a .git file (not a directory) is part of the tree: %q, %v", data, err)
	}
}

func TestWalkVisitsWhatFilepathWalkVisitsInTheSameOrder(t *testing.T) {
	root := tree(t, map[string]string{
		"b/z.yaml": "", "b/a.yaml": "", "a.yaml": "", "c/d/e.yml": "", "skip/x.yaml": "",
	})
	var want, got []string
	collect := func(into *[]string) filepath.WalkFunc {
		return func(path string, info os.FileInfo, err error) error {
			if err != nil {
				return err
			}
			*into = append(*into, strings.TrimPrefix(path, root))
			if info.IsDir() && info.Name() == "skip" {
				return filepath.SkipDir
			}
			return nil
		}
	}
	if err := filepath.Walk(root, collect(&want)); err != nil {
		t.Fatal(err)
	}
	if err := newArtifactFS(root).Walk(root, collect(&got)); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("walked %v, filepath.Walk %v", got, want)
	}
}

func TestReplacedFilesMustBeFilesOfTheArtifact(t *testing.T) {
	root := tree(t, map[string]string{"app/secret.env": "ENC[...]"})
	a := newArtifactFS(root)
	for _, name := range []string{"../outside.env", "/etc/passwd", "app/missing.env", "app"} {
		if err := overlay(newLayeredFS(a), a, map[string][]byte{name: []byte("x")}); err == nil {
			t.Errorf("%s was accepted", name)
		}
	}
	layers := newLayeredFS(a)
	if err := overlay(layers, a, map[string][]byte{"app/secret.env": []byte("PLAIN=1")}); err != nil {
		t.Fatal(err)
	}
	if data, _ := layers.ReadFile(filepath.Join(root, "app/secret.env")); string(data) != "PLAIN=1" {
		t.Errorf("the build reads %q", data)
	}
	if data, _ := os.ReadFile(filepath.Join(root, "app/secret.env")); string(data) != "ENC[...]" {
		t.Errorf("the file on disk became %q", data)
	}
}

// A path the system cannot look at fails the build: left out, its objects would be pruned.
func TestAnEntryThatCannotBeLookedAtFailsTheBuild(t *testing.T) {
	root := tree(t, map[string]string{"app/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n"})
	// A file below directories longer together than the system's path limit, made from inside
	// each directory in turn (a path that long cannot be named whole).
	here, _ := os.Getwd()
	defer os.Chdir(here)
	if err := os.Chdir(filepath.Join(root, "app")); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 25; i++ {
		name := strings.Repeat("d", 200)
		if err := os.Mkdir(name, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chdir(name); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile("deep.yaml", []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: deep}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	resp := newBuilder(root).build(Request{Root: root, Path: "app", Output: "objects"})
	if resp.Error == nil || resp.Error.Stage != StageGenerate || !strings.HasPrefix(resp.Error.Message, "lstat app/ddd") {
		t.Fatalf("the build of a tree with a path too long gave %+v (%d objects)", resp.Error, len(resp.Objects))
	}
}
