package main

import (
	"encoding/hex"
	"errors"
	"path/filepath"
	"sort"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// layeredFS is the artifact as kustomize sees it: the files below the root, read through the
// host (never written), with the files the build itself generates (Flux's kustomization.yaml)
// kept in memory on top. The artifact is never modified, so one artifact serves many builds.
type layeredFS struct {
	filesys.FileSystem                    // the artifact
	generated          filesys.FileSystem // generated files, by their absolute path, encoded
}

var errReadOnly = errors.New("the artifact is read-only")

func newLayeredFS(artifact filesys.FileSystem) *layeredFS {
	return &layeredFS{FileSystem: artifact, generated: filesys.MakeFsInMemory()}
}

// inMemory is where a path is kept in the generated layer. kustomize's in-memory file system
// refuses names with anything but letters, digits and "-_.:" (a directory named "a b" or "x@y"),
// while the artifact's paths may hold any name the host allows: each name is kept hex-encoded.
func inMemory(path string) string {
	names := strings.Split(absolute(path), string(filepath.Separator))
	for i, name := range names {
		if name != "" {
			names[i] = "h" + hex.EncodeToString([]byte(name))
		}
	}
	return strings.Join(names, string(filepath.Separator))
}

// fromMemory is the name an entry of the generated layer stands for.
func fromMemory(name string) string {
	decoded, err := hex.DecodeString(strings.TrimPrefix(name, "h"))
	if err != nil {
		return name
	}
	return string(decoded)
}

func (l *layeredFS) isGenerated(path string) bool {
	p := inMemory(path)
	return l.generated.Exists(p) && !l.generated.IsDir(p)
}

// WriteFile keeps data in memory; it is how the generated kustomization reaches kustomize.
func (l *layeredFS) WriteFile(path string, data []byte) error {
	p := inMemory(path)
	if err := l.generated.MkdirAll(filepath.Dir(p)); err != nil {
		return err
	}
	return l.generated.WriteFile(p, data)
}

func (l *layeredFS) Create(path string) (filesys.File, error) {
	p := inMemory(path)
	if err := l.generated.MkdirAll(filepath.Dir(p)); err != nil {
		return nil, err
	}
	return l.generated.Create(p)
}

func (l *layeredFS) Mkdir(string) error     { return errReadOnly }
func (l *layeredFS) MkdirAll(string) error  { return errReadOnly }
func (l *layeredFS) RemoveAll(string) error { return errReadOnly }

func (l *layeredFS) Open(path string) (filesys.File, error) {
	if l.isGenerated(path) {
		return l.generated.Open(inMemory(path))
	}
	return l.FileSystem.Open(path)
}

func (l *layeredFS) ReadFile(path string) ([]byte, error) {
	if l.isGenerated(path) {
		return l.generated.ReadFile(inMemory(path))
	}
	return l.FileSystem.ReadFile(path)
}

func (l *layeredFS) Exists(path string) bool {
	return l.isGenerated(path) || l.FileSystem.Exists(path)
}

func (l *layeredFS) IsDir(path string) bool {
	return !l.isGenerated(path) && l.FileSystem.IsDir(path)
}

func (l *layeredFS) CleanedAbs(path string) (filesys.ConfirmedDir, string, error) {
	if l.isGenerated(path) {
		p := absolute(path)
		return filesys.ConfirmedDir(filepath.Dir(p)), filepath.Base(p), nil
	}
	return l.FileSystem.CleanedAbs(path)
}

// ReadDir lists the artifact's entries and the generated files of the directory.
func (l *layeredFS) ReadDir(path string) ([]string, error) {
	names, err := l.FileSystem.ReadDir(path)
	if err != nil {
		return nil, err
	}
	p := inMemory(path)
	if !l.generated.IsDir(p) {
		return names, nil
	}
	extra, err := l.generated.ReadDir(p)
	if err != nil {
		return nil, err
	}
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		seen[n] = true
	}
	for _, n := range extra {
		if name := fromMemory(n); !seen[name] && !l.generated.IsDir(filepath.Join(p, n)) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names, nil
}

func absolute(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return filepath.Clean(path)
}
