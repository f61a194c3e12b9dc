//go:build helm

package main

import (
	"strings"
	"testing"
)

// Flux's post-renderers run in Helm's post-render step: in order (each sees what the one before
// gave), strategic merge and JSON 6902 patches with targets, and images; whether hooks are
// post-rendered is the strategy's.
func TestPostRenderersPatchTheRenderInOrder(t *testing.T) {
	root := chartRoot(t)
	w := startWorker(t, "--root", root)
	renderers := []PostRenderer{
		{Kustomize: &PostRenderKustomize{
			Patches: []Patch{
				{Patch: "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: any}\nspec: {replicas: 7}\n",
					Target: &Selector{Kind: "Deployment"}},
				{Patch: `[{"op": "add", "path": "/metadata/labels", "value": {"stage": "one"}}]`,
					Target: &Selector{Kind: "ConfigMap", Name: "web-app-post"}},
			},
			Images: []Image{{Name: "registry.invalid/app", NewName: "mirror.invalid/app", NewTag: "9.9"},
				{Name: "registry.invalid/migrate", NewTag: "2"}},
		}},
		// replaces the label the first one adds: in the other order the label would stay "one"
		{Kustomize: &PostRenderKustomize{Patches: []Patch{
			{Patch: `[{"op": "replace", "path": "/metadata/labels/stage", "value": "two"}]`,
				Target: &Selector{Kind: "ConfigMap", Name: "web-app-post"}},
		}}},
	}
	combined := render(w, root, "app", Render{ReleaseName: "web", Namespace: "shop", KubeVersion: "v1.31.2",
		PostRenderers: renderers})
	if combined.Error != nil {
		t.Fatalf("render: %+v", combined.Error)
	}
	manifest := combined.Rendered.Manifest
	for _, want := range []string{"replicas: 7", "image: mirror.invalid/app:9.9", "# Source: app/templates/deployment.yaml"} {
		if !strings.Contains(manifest, want) {
			t.Errorf("the manifest lacks %q:\n%s", want, manifest)
		}
	}
	hooks := map[string]Hook{}
	for _, h := range combined.Rendered.Hooks {
		hooks[h.Name] = h
	}
	if !strings.Contains(hooks["web-app-migrate"].Manifest, "image: registry.invalid/migrate:2") {
		t.Errorf("combined: the hook was not post-rendered:\n%s", hooks["web-app-migrate"].Manifest)
	}
	if !strings.Contains(hooks["web-app-post"].Manifest, "stage: two") {
		t.Errorf("the second post-renderer did not see the first's label:\n%s", hooks["web-app-post"].Manifest)
	}
	if hooks["web-app-migrate"].Weight != -5 || len(hooks["web-app-migrate"].DeletePolicies) != 2 {
		t.Errorf("the hook's annotations were lost: %+v", hooks["web-app-migrate"])
	}

	// nohooks (Helm 3's way): the hooks are as Helm rendered them; the post-renderers see the
	// manifest alone (the first one, whose JSON patch of a hook finds nothing to patch there)
	noHooks := render(w, root, "app", Render{ReleaseName: "web", Namespace: "shop", KubeVersion: "v1.31.2",
		PostRenderers: renderers[:1], PostRenderStrategy: "nohooks"})
	if noHooks.Error != nil {
		t.Fatalf("nohooks: %+v", noHooks.Error)
	}
	if !strings.Contains(noHooks.Rendered.Manifest, "image: mirror.invalid/app:9.9") {
		t.Errorf("nohooks: the manifest was not post-rendered:\n%s", noHooks.Rendered.Manifest)
	}
	for _, h := range noHooks.Rendered.Hooks {
		if h.Name == "web-app-migrate" && !strings.Contains(h.Manifest, "image: registry.invalid/migrate:1") {
			t.Errorf("nohooks: the hook was post-rendered:\n%s", h.Manifest)
		}
	}
}

// A post-renderer's failure fails the render, and an unknown strategy is refused.
func TestAPostRendererThatFailsFailsTheRender(t *testing.T) {
	root := chartRoot(t)
	w := startWorker(t, "--root", root)
	resp := render(w, root, "app", Render{ReleaseName: "web", Namespace: "shop", Values: []string{"password: S3cr3tValue"},
		PostRenderers: []PostRenderer{{Kustomize: &PostRenderKustomize{Patches: []Patch{
			{Patch: `[{"op": "test", "path": "/spec/replicas", "value": 99}]`, Target: &Selector{Kind: "Deployment"}}}}}}})
	if resp.Error == nil || resp.Error.Stage != StageRender || !strings.Contains(resp.Error.Message, "post render") ||
		strings.Contains(resp.Error.Message, "S3cr3tValue") {
		t.Errorf("a failing patch: %+v", resp.Error)
	}
	resp = render(w, root, "app", Render{ReleaseName: "web", Namespace: "shop", PostRenderStrategy: "sometimes"})
	if resp.Error == nil || resp.Error.Stage != StageRequest || !strings.Contains(resp.Error.Message, "post-render strategy") {
		t.Errorf("an unknown strategy: %+v", resp.Error)
	}
}
