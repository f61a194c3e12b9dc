//go:build helm

// The chart worker's half: this file and chart.go are built only with the helm tag (into
// capstan-chart-worker), so that the kustomize worker links none of Helm, client-go or the
// JSON schema library, and pays neither their size nor their package initialisation.
package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"text/template"

	"helm.sh/helm/v4/pkg/action"
	helmchart "helm.sh/helm/v4/pkg/chart"
	"helm.sh/helm/v4/pkg/chart/common"
	chartloader "helm.sh/helm/v4/pkg/chart/v2/loader"
	helmrelease "helm.sh/helm/v4/pkg/release/v1"
	"helm.sh/helm/v4/pkg/strvals"
)

// workerName is the executable's name, for its messages.
const workerName = "capstan-chart-worker"

// rendersCharts says, in the hello, that this worker renders charts.
const rendersCharts = true

// render renders the chart at req.Path below the artifact as `helm template` of the pinned Helm
// does, with Helm's own code: its loader, its dependency and values processing, its schema
// check and its template engine, through action.Install in client-only dry-run mode (the mode
// `helm template` runs it in), with no cluster and no network; lookup asks the host when the
// request says it answers, and the request's post-renderers run in Helm's post-render step.
func (b *builder) render(req Request) Response {
	opts := req.Render
	artifact := newArtifactFS(b.root)
	dir := filepath.Join(b.root, filepath.Join(string(filepath.Separator), req.Path))
	loaded, err := loadChart(artifact, dir)
	if err != nil {
		return failed(StageChart, b.cleanMessage(err.Error()))
	}
	c := loaded.chart
	values, err := userValues(opts.Values, opts.Set)
	if err != nil {
		return failed(StageValues, err.Error())
	}
	hide := secretsOf(values)
	if c.Metadata.Type != "" && c.Metadata.Type != "application" {
		return failed(StageChart, fmt.Sprintf("%s charts are not installable", c.Metadata.Type))
	}
	if err := pinVersion(c.Metadata, opts.VersionTag, opts.VersionBuild); err != nil {
		return failed(StageVersion, err.Error())
	}
	accessor, err := helmchart.NewAccessor(c)
	if err != nil {
		return failed(StageChart, err.Error())
	}
	if deps := accessor.MetaDependencies(); len(deps) > 0 {
		if err := action.CheckDependencies(c, deps); err != nil {
			return failed(StageChart, "an error occurred while checking for chart dependencies. "+
				"The chart's charts/ directory must hold every dependency: "+err.Error())
		}
	}
	var funcs template.FuncMap
	if opts.Lookups {
		funcs = b.lookupFuncs()
	}
	install, err := templateAction(opts, funcs)
	if err == nil {
		err = b.usePostRenderers(install, opts)
	}
	if err != nil {
		return failed(StageRequest, err.Error())
	}
	rel, err := install.RunWithContext(context.Background(), c, values)
	if err != nil {
		return failed(StageRender, hide(err.Error()))
	}
	r, ok := rel.(*helmrelease.Release)
	if !ok {
		return failed(StageRender, fmt.Sprintf("unsupported release type: %T", rel))
	}
	return Response{Rendered: answer(r, loaded, opts)}
}

// templateAction is the install action as `helm template` sets it up, with funcs over the
// template engine's own (a lookup that asks the host).
func templateAction(opts *Render, funcs template.FuncMap) (*action.Install, error) {
	config := action.NewConfiguration()
	config.CustomTemplateFuncs = funcs
	install := action.NewInstall(config)
	install.DryRunStrategy = action.DryRunClient
	install.ReleaseName = opts.ReleaseName
	install.Namespace = opts.Namespace
	install.Replace = true // as helm template: no check of the name against stored releases
	install.APIVersions = common.VersionSet(opts.APIVersions)
	install.IncludeCRDs = opts.IncludeCRDs
	install.DisableHooks = opts.DisableHooks
	install.IsUpgrade = opts.IsUpgrade
	install.SkipSchemaValidation = opts.SkipSchemaValidation
	if opts.KubeVersion != "" {
		version, err := common.ParseKubeVersion(opts.KubeVersion)
		if err != nil {
			return nil, fmt.Errorf("invalid kube version '%s': %w", opts.KubeVersion, err)
		}
		install.KubeVersion = version
	}
	if install.ReleaseName == "" {
		return nil, fmt.Errorf("a render needs a release name")
	}
	return install, nil
}

// userValues merges the documents in order, each over the ones before, as `helm template -f a
// -f b` merges its files, then sets each --set expression over them with Helm's own parser.
func userValues(documents []string, set []string) (map[string]any, error) {
	values := map[string]any{}
	for i, document := range documents {
		current, err := chartloader.LoadValues(strings.NewReader(document))
		if err != nil {
			return nil, fmt.Errorf("failed to parse values document %d: %w", i+1, err)
		}
		values = chartloader.MergeMaps(values, current)
	}
	for _, expression := range set {
		if err := strvals.ParseInto(expression, values); err != nil {
			return nil, fmt.Errorf("failed parsing --set data: %w", err)
		}
	}
	return values, nil
}

// secretsOf gives a function that hides in a message every string among the values: some may
// come from a Secret, and Helm's messages (a schema's pattern check, a YAML error) can quote a
// value. Short strings are hidden only where quoted, so that a message stays readable.
func secretsOf(values map[string]any) func(string) string {
	var texts []string
	var collect func(any)
	collect = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for _, e := range v {
				collect(e)
			}
		case []any:
			for _, e := range v {
				collect(e)
			}
		case string:
			if v != "" {
				texts = append(texts, v)
			}
		}
	}
	collect(values)
	// longest first, so that a value containing another is hidden whole
	sort.Slice(texts, func(i, j int) bool { return len(texts[i]) > len(texts[j]) })
	return func(message string) string {
		for _, text := range texts {
			if len(text) >= 4 {
				message = strings.ReplaceAll(message, text, "(a value)")
				continue
			}
			for _, quote := range []string{`"`, `'`} {
				message = strings.ReplaceAll(message, quote+text+quote, "(a value)")
			}
		}
		return message
	}
}

func answer(r *helmrelease.Release, loaded loadedChart, opts *Render) *Rendered {
	meta := loaded.chart.Metadata
	out := &Rendered{
		Chart:    RenderedChart{Name: meta.Name, Version: meta.Version, AppVersion: meta.AppVersion, Digest: loaded.digest},
		Manifest: r.Manifest,
		Notes:    r.Info.Notes,
	}
	if opts.DisableHooks {
		return out
	}
	for _, h := range r.Hooks {
		if opts.SkipTests && slices.Contains(h.Events, helmrelease.HookTest) {
			continue
		}
		hook := Hook{Path: h.Path, Kind: h.Kind, Name: h.Name, Weight: h.Weight, Manifest: h.Manifest}
		for _, e := range h.Events {
			hook.Events = append(hook.Events, string(e))
		}
		for _, p := range h.DeletePolicies {
			hook.DeletePolicies = append(hook.DeletePolicies, string(p))
		}
		for _, p := range h.OutputLogPolicies {
			hook.OutputLogPolicies = append(hook.OutputLogPolicies, string(p))
		}
		out.Hooks = append(out.Hooks, hook)
	}
	return out
}

// templateText is the text `helm template` prints for a render: the manifest, then each hook
// the answer carries with its source.
func templateText(r *Rendered) string {
	var text bytes.Buffer
	fmt.Fprintln(&text, strings.TrimSpace(r.Manifest))
	for _, h := range r.Hooks {
		fmt.Fprintf(&text, "---\n# Source: %s\n%s\n", h.Path, h.Manifest)
	}
	return text.String()
}
