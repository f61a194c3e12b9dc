package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// artifactFS is an artifact on disk as a build may see it: the regular files and directories
// below its root, read only. Whatever else is there does not exist for the build, as it does not
// exist in the artifacts Flux makes: symbolic links (in any component of a path), .git
// directories, FIFOs (a read would block forever), sockets and device files. A path that leaves
// the root (an absolute one, or "../" past it) does not exist either. The kernel's confinement
// (sandbox_linux.go) holds the same line a second time.
type artifactFS struct {
	root string // absolute, clean, without symbolic links
}

var _ filesys.FileSystem = artifactFS{}

func newArtifactFS(root string) artifactFS {
	return artifactFS{root: filepath.Clean(root)}
}

// notFound is the error the operating system gives for a missing file, so that kustomize's
// messages read as they do for any missing file.
func notFound(op, path string) error {
	return &fs.PathError{Op: op, Path: path, Err: syscall.ENOENT}
}

// pathError is err as the operation on path would have given it (not on the component that
// failed), as kustomize's messages expect.
func pathError(op, path string, err error) error {
	var e *fs.PathError
	if errors.As(err, &e) {
		return &fs.PathError{Op: op, Path: path, Err: e.Err}
	}
	return err
}

// lookup finds path below the root without following any link: each component from the root
// down must be a directory, the last a directory or a regular file.
func (a artifactFS) lookup(op, path string) (string, fs.FileInfo, error) {
	abs := absolute(path)
	if abs != a.root && !strings.HasPrefix(abs, a.root+string(filepath.Separator)) {
		return abs, nil, notFound(op, path)
	}
	info, err := os.Lstat(a.root)
	if err != nil {
		return abs, nil, pathError(op, path, err)
	}
	current := a.root
	rest := strings.TrimPrefix(strings.TrimPrefix(abs, a.root), string(filepath.Separator))
	if rest == "" {
		return abs, info, nil
	}
	for _, name := range strings.Split(rest, string(filepath.Separator)) {
		if !info.IsDir() {
			return abs, nil, &fs.PathError{Op: op, Path: path, Err: syscall.ENOTDIR}
		}
		current = filepath.Join(current, name)
		if info, err = os.Lstat(current); err != nil {
			return abs, nil, pathError(op, path, err)
		}
		if !visible(name, info) {
			return abs, nil, notFound(op, path)
		}
	}
	return abs, info, nil
}

// visible says whether a directory entry is part of the artifact.
func visible(name string, info fs.FileInfo) bool {
	if info.IsDir() {
		return name != ".git"
	}
	return info.Mode().IsRegular()
}

func (a artifactFS) Open(path string) (filesys.File, error) {
	abs, _, err := a.lookup("open", path)
	if err != nil {
		return nil, err
	}
	return os.Open(abs)
}

func (a artifactFS) ReadFile(path string) ([]byte, error) {
	abs, info, err := a.lookup("open", path)
	if err != nil {
		return nil, err
	}
	if info.IsDir() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: syscall.EISDIR}
	}
	return os.ReadFile(abs)
}

func (a artifactFS) Exists(path string) bool {
	_, _, err := a.lookup("stat", path)
	return err == nil
}

func (a artifactFS) IsDir(path string) bool {
	_, info, err := a.lookup("stat", path)
	return err == nil && info.IsDir()
}

// ReadDir lists the visible entries of a directory, sorted by name.
func (a artifactFS) ReadDir(path string) ([]string, error) {
	entries, err := a.entries(path)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
	}
	return names, nil
}

func (a artifactFS) entries(path string) ([]fs.FileInfo, error) {
	abs, info, err := a.lookup("open", path)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return nil, &fs.PathError{Op: "readdirent", Path: path, Err: syscall.ENOTDIR}
	}
	listed, err := os.ReadDir(abs)
	if err != nil {
		return nil, err
	}
	var out []fs.FileInfo
	for _, entry := range listed {
		info, err := entry.Info()
		if errors.Is(err, fs.ErrNotExist) {
			continue // gone since the listing
		}
		if err != nil {
			// An entry that cannot be looked at (a path too long, no permission) fails the build:
			// left out silently, its objects would be pruned as if deleted.
			return nil, pathError("lstat", filepath.Join(path, entry.Name()), err)
		}
		if visible(entry.Name(), info) {
			out = append(out, info)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}

// CleanedAbs splits a path into its directory and file name; there are no links to resolve, and
// a missing path fails as kustomize's own file system words it.
func (a artifactFS) CleanedAbs(path string) (filesys.ConfirmedDir, string, error) {
	abs, info, err := a.lookup("lstat", path)
	if err != nil {
		return "", "", fmt.Errorf("evalsymlink failure on '%s' : %w", path, err)
	}
	if info.IsDir() {
		return filesys.ConfirmedDir(abs), "", nil
	}
	return filesys.ConfirmedDir(filepath.Dir(abs)), filepath.Base(abs), nil
}

// Glob matches as kustomize's own file system does (hidden files only when the pattern names
// them), among visible entries only.
func (a artifactFS) Glob(pattern string) ([]string, error) {
	matches, err := filepath.Glob(pattern)
	if err != nil {
		return nil, err
	}
	var result []string
	for _, m := range matches {
		if a.Exists(m) {
			result = append(result, m)
		}
	}
	if filesys.IsHiddenFilePath(pattern) {
		return result, nil
	}
	return filesys.RemoveHiddenFiles(result), nil
}

// Walk visits the tree as filepath.Walk does (lexical order, SkipDir and SkipAll honoured),
// among visible entries only.
func (a artifactFS) Walk(path string, walkFn filepath.WalkFunc) error {
	_, info, err := a.lookup("lstat", path)
	if err != nil {
		err = walkFn(path, nil, err)
	} else {
		err = a.walk(path, info, walkFn)
	}
	if errors.Is(err, filepath.SkipDir) || errors.Is(err, filepath.SkipAll) {
		return nil
	}
	return err
}

func (a artifactFS) walk(path string, info fs.FileInfo, walkFn filepath.WalkFunc) error {
	if !info.IsDir() {
		return walkFn(path, info, nil)
	}
	entries, err := a.entries(path)
	if err1 := walkFn(path, info, err); err != nil || err1 != nil {
		return err1
	}
	for _, entry := range entries {
		err := a.walk(filepath.Join(path, entry.Name()), entry, walkFn)
		if err != nil && (!entry.IsDir() || !errors.Is(err, filepath.SkipDir)) {
			return err
		}
	}
	return nil
}

var errArtifactReadOnly = errors.New("the artifact is read-only")

func (artifactFS) Create(string) (filesys.File, error) { return nil, errArtifactReadOnly }
func (artifactFS) Mkdir(string) error                  { return errArtifactReadOnly }
func (artifactFS) MkdirAll(string) error               { return errArtifactReadOnly }
func (artifactFS) RemoveAll(string) error              { return errArtifactReadOnly }
func (artifactFS) WriteFile(string, []byte) error      { return errArtifactReadOnly }

// overlay puts files that must never reach a disk (decrypted generator inputs) on top of the
// artifact, in memory: each replaces a regular file the artifact has, by a path relative to root.
func overlay(layers *layeredFS, artifact artifactFS, files map[string][]byte) error {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if filepath.IsAbs(name) || !filepath.IsLocal(name) {
			return errors.New("a replaced file is not a path inside the artifact: " + short(name))
		}
		path := filepath.Join(artifact.root, name)
		if _, info, err := artifact.lookup("open", path); err != nil || info.IsDir() {
			return errors.New("a replaced file is not a file of the artifact: " + short(name))
		}
		if err := layers.WriteFile(path, files[name]); err != nil {
			return err
		}
	}
	return nil
}
