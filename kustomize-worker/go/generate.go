package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"sigs.k8s.io/kustomize/api/konfig"
	"sigs.k8s.io/kustomize/api/provider"
	"sigs.k8s.io/kustomize/api/resource"
	kustypes "sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

// generateKustomization writes the kustomization that Flux's kustomize-controller builds for dir:
// the directory's own kustomization file (or, when it has none, one that lists every manifest
// below it) with the Kustomization's build fields merged in. The file goes to the in-memory layer
// of fs, under the name kustomize will read. listed is true when the directory had no
// kustomization file (see checkManifests).
func generateKustomization(fs *layeredFS, dir string, spec Spec) (listed bool, err error) {
	data, file, created, err := findOrListKustomization(fs, dir)
	if err != nil {
		return created, err
	}
	kus := kustypes.Kustomization{TypeMeta: kustypes.TypeMeta{
		APIVersion: kustypes.KustomizationVersion,
		Kind:       kustypes.KustomizationKind,
	}}
	// Flux reads the file leniently (unknown fields are dropped) and writes it back.
	if err := yaml.Unmarshal(data, &kus); err != nil {
		return created, fmt.Errorf("%s: %w", filepath.Base(file), err)
	}
	if !created && len(kus.Resources) == 0 {
		// Flux's guard against kustomize's "kustomization.yaml is empty" error.
		kus.BuildMetadata = []string{kustypes.OriginAnnotations}
	}
	if err := mergeSpec(fs, dir, &kus, spec); err != nil {
		return created, err
	}
	out, err := yaml.Marshal(kus)
	if err != nil {
		return created, err
	}
	return created, fs.WriteFile(file, out)
}

// findOrListKustomization returns the directory's kustomization file, or a new one listing its
// manifests (created true).
func findOrListKustomization(fs filesys.FileSystem, dir string) (data []byte, file string, created bool, err error) {
	for _, name := range konfig.RecognizedKustomizationFileNames() {
		path := filepath.Join(dir, name)
		if fs.Exists(path) && !fs.IsDir(path) {
			data, err = fs.ReadFile(path)
			return data, path, false, err
		}
	}
	files, err := listManifests(fs, dir)
	if err != nil {
		return nil, "", true, err
	}
	kus := kustypes.Kustomization{TypeMeta: kustypes.TypeMeta{
		APIVersion: kustypes.KustomizationVersion,
		Kind:       kustypes.KustomizationKind,
	}}
	for _, f := range files {
		kus.Resources = append(kus.Resources, "."+strings.TrimPrefix(f, dir))
	}
	if len(kus.Resources) == 0 {
		// As Flux does: a placeholder keeps kustomize from refusing an empty kustomization.
		kus.Namespace = "_placeholder"
	}
	data, err = yaml.Marshal(kus)
	return data, filepath.Join(dir, konfig.DefaultKustomizationFileName()), true, err
}

// listManifests lists, in walk order, every .yaml/.yml file below dir and every sub-directory
// that has its own kustomization file (not descended into).
func listManifests(fs filesys.FileSystem, dir string) ([]string, error) {
	var paths []string
	err := fs.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if path == dir {
			return nil
		}
		if info.IsDir() {
			for _, name := range konfig.RecognizedKustomizationFileNames() {
				if k := filepath.Join(path, name); fs.Exists(k) && !fs.IsDir(k) {
					paths = append(paths, path)
					return filepath.SkipDir
				}
			}
			return nil
		}
		if ext := filepath.Ext(path); ext == ".yaml" || ext == ".yml" {
			paths = append(paths, path)
		}
		return nil
	})
	return paths, err
}

// checkManifests finds the first listed manifest that does not hold Kubernetes objects, and
// fails the way Flux's generator fails for it. Flux decodes every manifest before the build;
// kustomize decodes them again with the same decoder, so a build that succeeds needs no check,
// and one that fails is checked afterwards, for Flux's message.
func checkManifests(fs filesys.FileSystem, dir string) error {
	files, err := listManifests(fs, dir)
	if err != nil {
		return err
	}
	factory := provider.NewDefaultDepProvider().GetResourceFactory()
	for _, path := range files {
		if fs.IsDir(path) {
			continue
		}
		if err := decodeManifest(fs, factory, path); err != nil {
			return err
		}
	}
	return nil
}

func decodeManifest(fs filesys.FileSystem, factory *resource.Factory, path string) (err error) {
	content, err := fs.ReadFile(path)
	if err != nil {
		return err
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("failed to decode Kubernetes YAML from %s: the YAML parser failed", path)
		}
	}()
	if _, err := factory.SliceFromBytes(content); err != nil {
		return fmt.Errorf("failed to decode Kubernetes YAML from %s: %w", path, err)
	}
	return nil
}

// mergeSpec sets the Kustomization's build fields on kus the way Flux does: namespace, prefix and
// suffix replace the file's; patches and components are appended; an image already listed is
// updated field by field.
func mergeSpec(fs filesys.FileSystem, dir string, kus *kustypes.Kustomization, spec Spec) error {
	if spec.TargetNamespace != "" {
		kus.Namespace = spec.TargetNamespace
	}
	if spec.NamePrefix != "" {
		kus.NamePrefix = spec.NamePrefix
	}
	if spec.NameSuffix != "" {
		kus.NameSuffix = spec.NameSuffix
	}
	for _, p := range spec.Patches {
		kus.Patches = append(kus.Patches, kustypes.Patch{Patch: p.Patch, Target: p.Target.kustomize()})
	}
	for _, c := range spec.Components {
		if !isLocalRelativePath(c) {
			return fmt.Errorf("component path '%s' must be local and relative", c)
		}
		if spec.IgnoreMissingComponents && !fs.Exists(filepath.Join(dir, c)) {
			continue
		}
		kus.Components = append(kus.Components, c)
	}
	for _, image := range spec.Images {
		mergeImage(kus, image)
	}
	if len(spec.BuildMetadata) > 0 {
		kus.BuildMetadata = spec.BuildMetadata
	}
	return nil
}

func mergeImage(kus *kustypes.Kustomization, image Image) {
	for i := range kus.Images {
		existing := &kus.Images[i]
		if existing.Name != image.Name {
			continue
		}
		if image.NewName != "" {
			existing.NewName = image.NewName
		}
		// A tag and a digest both pick the version: setting either replaces both, so a stale
		// digest never rides along with a new tag.
		if image.NewTag != "" || image.Digest != "" {
			existing.NewTag = image.NewTag
			existing.Digest = image.Digest
		}
		return
	}
	kus.Images = append(kus.Images, kustypes.Image{
		Name: image.Name, NewName: image.NewName, NewTag: image.NewTag, Digest: image.Digest,
	})
}

func (s *Selector) kustomize() *kustypes.Selector {
	if s == nil {
		return nil
	}
	out := &kustypes.Selector{AnnotationSelector: s.AnnotationSelector, LabelSelector: s.LabelSelector}
	out.Group = s.Group
	out.Version = s.Version
	out.Kind = s.Kind
	out.Name = s.Name
	out.Namespace = s.Namespace
	return out
}

// isLocalRelativePath is false for remote references (Git and HTTP) and absolute paths.
func isLocalRelativePath(path string) bool {
	lower := strings.ToLower(path)
	for _, remote := range []string{"git::", "gh:", "ssh://", "https://", "http://", "git@", "github.com:", "github.com/"} {
		if len(remote) < len(path) && strings.HasPrefix(lower, remote) {
			return false
		}
	}
	return !filepath.IsAbs(path) && !filepath.IsAbs(strings.TrimPrefix(lower, "file://"))
}
