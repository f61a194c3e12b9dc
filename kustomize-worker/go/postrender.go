//go:build helm

package main

import (
	"bytes"
	"encoding/json"
	"fmt"

	"helm.sh/helm/v4/pkg/action"
	kustypes "sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// kustomizeRenderer is one of Flux's `postRenderers[].kustomize`: Helm's rendered documents
// become the only resource of an in-memory kustomization that lists the patches (strategic
// merge or JSON 6902, each with its target) and the images, built as Flux's helm-controller
// builds it (no load restrictor, plugins off). Helm calls it from its own render
// (action.Install's PostRenderer), so what it is given, hooks or not, is what Helm gives
// Flux's post-renderers for the strategy.
type kustomizeRenderer struct {
	b       *builder
	patches []Patch
	images  []Image
}

// Run builds the documents with the kustomization and gives kustomize's YAML back.
func (k kustomizeRenderer) Run(rendered *bytes.Buffer) (*bytes.Buffer, error) {
	const input = "helm-output.yaml"
	fs := filesys.MakeFsInMemory()
	if err := fs.WriteFile(input, rendered.Bytes()); err != nil {
		return nil, err
	}
	kustomization := kustypes.Kustomization{Resources: []string{input}}
	kustomization.APIVersion = kustypes.KustomizationVersion
	kustomization.Kind = kustypes.KustomizationKind
	for _, p := range k.patches {
		kustomization.Patches = append(kustomization.Patches, kustypes.Patch{Patch: p.Patch, Target: selector(p.Target)})
	}
	for _, i := range k.images {
		kustomization.Images = append(kustomization.Images,
			kustypes.Image{Name: i.Name, NewName: i.NewName, NewTag: i.NewTag, Digest: i.Digest})
	}
	text, err := json.Marshal(kustomization)
	if err != nil {
		return nil, err
	}
	if err := fs.WriteFile("kustomization.yaml", text); err != nil {
		return nil, err
	}
	m, err := k.b.kustomize(fs, ".")
	if err != nil {
		return nil, err
	}
	out, err := m.AsYaml()
	if err != nil {
		return nil, err
	}
	return bytes.NewBuffer(out), nil
}

// selector is a patch's target as kustomize reads it.
func selector(s *Selector) *kustypes.Selector {
	if s == nil {
		return nil
	}
	out := &kustypes.Selector{LabelSelector: s.LabelSelector, AnnotationSelector: s.AnnotationSelector}
	out.Group, out.Version, out.Kind = s.Group, s.Version, s.Kind
	out.Name, out.Namespace = s.Name, s.Namespace
	return out
}

// postRenderers is the request's post-renderers, in order, each given what the one before gave
// (nil when there are none, so that Helm's output is left as it renders it).
type postRenderers []kustomizeRenderer

func (p postRenderers) Run(rendered *bytes.Buffer) (*bytes.Buffer, error) {
	var err error
	for _, r := range p {
		if rendered, err = r.Run(rendered); err != nil {
			return nil, err
		}
	}
	return rendered, nil
}

// usePostRenderers sets the request's post-renderers and Flux's strategy for hooks on the
// install action.
func (b *builder) usePostRenderers(install *action.Install, opts *Render) error {
	switch strategy := action.PostRenderStrategy(opts.PostRenderStrategy); strategy {
	case "":
		install.PostRenderStrategy = action.PostRenderStrategyCombined
	case action.PostRenderStrategyCombined, action.PostRenderStrategySeparate, action.PostRenderStrategyNoHooks:
		install.PostRenderStrategy = strategy
	default:
		return fmt.Errorf("unknown post-render strategy %q: it is nohooks, combined or separate", opts.PostRenderStrategy)
	}
	var renderers postRenderers
	for i, r := range opts.PostRenderers {
		if r.Kustomize == nil {
			return fmt.Errorf("post-renderer %d has no kustomize section", i+1)
		}
		renderers = append(renderers, kustomizeRenderer{b: b, patches: r.Kustomize.Patches, images: r.Kustomize.Images})
	}
	if len(renderers) > 0 {
		install.PostRenderer = renderers
	}
	return nil
}
