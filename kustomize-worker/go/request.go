package main

import "encoding/json"

// Request is one build, as the JVM sends it (JSON, in a frame: see frame.go).
type Request struct {
	// Root is the artifact: an absolute directory at or below the worker's --root, without
	// symbolic links. The build reads nothing else.
	Root string `json:"root"`
	// Path is the directory to build, relative to Root; ".." cannot leave Root.
	Path string `json:"path"`
	// Output is "objects" (one JSON document per object, for the applier) or "yaml"
	// (kustomize's own multi-document YAML text, for the command line).
	Output string `json:"output"`
	// Spec holds the build fields of the Kustomization; empty for a plain build.
	Spec Spec `json:"spec"`
	// PostBuild is present when the Kustomization has a postBuild section.
	PostBuild *PostBuild `json:"postBuild,omitempty"`
	// Files replace files of the artifact, for this build only and in memory (paths relative to
	// Root): decrypted secretGenerator inputs, which must never reach a disk.
	Files map[string][]byte `json:"files,omitempty"`
	// Render, when present, asks for the Helm chart at Path (a chart directory or a .tgz file
	// below Root) rendered as `helm template` renders it, instead of a kustomize build: Output,
	// Spec, PostBuild and Files do not apply (see render.go).
	Render *Render `json:"render,omitempty"`
	// Probe, accepted only by a worker started with --test-probes, makes the worker try something
	// its sandbox must refuse, instead of a build.
	Probe *Probe `json:"probe,omitempty"`
}

// Probe is one attempt to reach past the sandbox, made on a thread that was running before the
// sandbox was entered: the kernel's answer proves the confinement covers every thread.
type Probe struct {
	// Open is a file to open for reading.
	Open string `json:"open,omitempty"`
	// Connect is a TCP address (host:port) to connect to.
	Connect string `json:"connect,omitempty"`
	// Syscall is a system call to make (see probe.go: "socket", "io_uring_setup", and on amd64
	// "getpid-i386", getpid through the 32-bit int 0x80 entry).
	Syscall string `json:"syscall,omitempty"`
	// Stdout is text to print on the process's standard output, as a library might.
	Stdout string `json:"stdout,omitempty"`
}

// ProbeResult is what the attempt gave: the operating system's error, or none.
type ProbeResult struct {
	Error string `json:"error,omitempty"`
}

// Spec is the part of a Kustomization's spec that changes what is built.
type Spec struct {
	TargetNamespace         string          `json:"targetNamespace,omitempty"`
	NamePrefix              string          `json:"namePrefix,omitempty"`
	NameSuffix              string          `json:"nameSuffix,omitempty"`
	Patches                 []Patch         `json:"patches,omitempty"`
	Images                  []Image         `json:"images,omitempty"`
	Components              []string        `json:"components,omitempty"`
	IgnoreMissingComponents bool            `json:"ignoreMissingComponents,omitempty"`
	BuildMetadata           []string        `json:"buildMetadata,omitempty"`
	CommonMetadata          *CommonMetadata `json:"commonMetadata,omitempty"`
}

// Patch is an entry of spec.patches.
type Patch struct {
	Patch  string    `json:"patch"`
	Target *Selector `json:"target,omitempty"`
}

// Selector is the target of a patch.
type Selector struct {
	Group              string `json:"group,omitempty"`
	Version            string `json:"version,omitempty"`
	Kind               string `json:"kind,omitempty"`
	Name               string `json:"name,omitempty"`
	Namespace          string `json:"namespace,omitempty"`
	LabelSelector      string `json:"labelSelector,omitempty"`
	AnnotationSelector string `json:"annotationSelector,omitempty"`
}

// Image is an entry of spec.images.
type Image struct {
	Name    string `json:"name"`
	NewName string `json:"newName,omitempty"`
	NewTag  string `json:"newTag,omitempty"`
	Digest  string `json:"digest,omitempty"`
}

// CommonMetadata is spec.commonMetadata: set on every object's metadata after the build.
type CommonMetadata struct {
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

// PostBuild carries the variables of spec.postBuild, already read by the host.
type PostBuild struct {
	// Substitute is spec.postBuild.substitute; it overrides SubstituteFrom.
	Substitute map[string]string `json:"substitute,omitempty"`
	// SubstituteFrom holds the data of each spec.postBuild.substituteFrom entry that exists, in
	// order (later entries win); Secret values decoded.
	SubstituteFrom []map[string]string `json:"substituteFrom,omitempty"`
	// Always is spec.postBuild.substituteStrategy: Always (substitute even without variables).
	Always bool `json:"always,omitempty"`
	// Strict fails the substitution on a variable that has no value and no default (Flux's
	// StrictPostBuildSubstitutions); without it such a variable becomes the empty string.
	Strict bool `json:"strict,omitempty"`
}

// Render is a chart's render, with the options of `helm template`.
type Render struct {
	ReleaseName string `json:"releaseName"`
	Namespace   string `json:"namespace"`
	// Values are the user-supplied values: YAML (or JSON) documents, each merged over the ones
	// before as `helm template -f first -f second` merges its files; the chart's own values come
	// under them all, as Helm merges them. The host resolves Flux's valuesFrom (with targetPath)
	// and inline values into these layers, in Flux's order.
	Values []string `json:"values,omitempty"`
	// Set are `helm template --set` expressions (Helm's strvals syntax: a.b=c, list[0]=x,
	// comma-separated pairs, backslash escapes), each set over the values after every document,
	// in order, by Helm's own parser.
	Set []string `json:"set,omitempty"`
	// KubeVersion and APIVersions are the cluster's (from discovery), as --kube-version and
	// --api-versions give them; the API versions are added to Helm's default list. Without a
	// KubeVersion, Helm's default (that of the client-go it is built with).
	KubeVersion string   `json:"kubeVersion,omitempty"`
	APIVersions []string `json:"apiVersions,omitempty"`
	// IncludeCRDs puts the chart's crds/ files at the head of the manifest (--include-crds).
	IncludeCRDs bool `json:"includeCRDs,omitempty"`
	// SkipTests leaves the test hooks out of the answer (--skip-tests); DisableHooks all hooks
	// (--no-hooks).
	SkipTests    bool `json:"skipTests,omitempty"`
	DisableHooks bool `json:"disableHooks,omitempty"`
	// IsUpgrade renders with .Release.IsUpgrade set (--is-upgrade).
	IsUpgrade bool `json:"isUpgrade,omitempty"`
	// SkipSchemaValidation does not check the values against values.schema.json
	// (--skip-schema-validation).
	SkipSchemaValidation bool `json:"skipSchemaValidation,omitempty"`
	// PostRenderers are Flux's spec.postRenderers, applied in order by Helm's post-render step
	// (see postrender.go); Flux's own origin labels are not among them.
	PostRenderers []PostRenderer `json:"postRenderers,omitempty"`
	// PostRenderStrategy is Flux's spec.postRenderStrategy: what of the hooks the post-renderers
	// see ("nohooks", "combined" or "separate"; empty: "combined", Helm 4's default).
	PostRenderStrategy string `json:"postRenderStrategy,omitempty"`
	// Lookups says that the host answers the chart's lookup calls (see lookup.go); without it
	// lookup finds nothing, as in `helm template`.
	Lookups bool `json:"lookups,omitempty"`
	// VersionTag is the tag an OCI artifact was pulled by: the chart's version must be that
	// version (semantic versions compared, build metadata aside), as Flux's helm-controller asks of
	// a chart from an OCIRepository. Empty: no tag to match.
	VersionTag string `json:"versionTag,omitempty"`
	// VersionBuild replaces the build metadata of the chart's version before the render (so the
	// templates' .Chart.Version shows it too): Flux's first 12 hex digits of an OCI artifact's
	// digest, which tell a tag pushed again with other content apart. Empty: the chart's own.
	VersionBuild string `json:"versionBuild,omitempty"`
}

// PostRenderer is an entry of Flux's spec.postRenderers.
type PostRenderer struct {
	Kustomize *PostRenderKustomize `json:"kustomize,omitempty"`
}

// PostRenderKustomize is a post-renderer's kustomize section: patches (strategic merge or JSON
// 6902, each with its target) and images.
type PostRenderKustomize struct {
	Patches []Patch `json:"patches,omitempty"`
	Images  []Image `json:"images,omitempty"`
}

// Question is what the worker asks the host in the middle of a request: a frame with the
// request's id whose body is this object (an answer to the request never begins with
// {"question":). The host answers with a frame of the same id before the request goes on.
type Question struct {
	Lookup *LookupQuery `json:"lookup,omitempty"`
}

// LookupQuery is a chart's call of lookup: one object (with a name) or a list.
type LookupQuery struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace"`
	Name       string `json:"name"`
}

// LookupAnswer is the host's answer to a lookup: the object or list as JSON, or that it does
// not exist, or why it could not be read.
type LookupAnswer struct {
	Found   json.RawMessage `json:"found,omitempty"`
	Missing bool            `json:"missing,omitempty"`
	Error   string          `json:"error,omitempty"`
}

// Rendered is a chart's render.
type Rendered struct {
	Chart RenderedChart `json:"chart"`
	// Manifest is Helm's release manifest: every document that is not a hook, each after a
	// "---" and a "# Source: chart/templates/file.yaml" line, in Helm's install order (with
	// IncludeCRDs, the chart's CRDs first).
	Manifest string `json:"manifest"`
	// Hooks are the hooks, apart, in Helm's order (the install order of their kinds); Helm runs
	// them by weight.
	Hooks []Hook `json:"hooks,omitempty"`
	// Notes is the text of the chart's templates/NOTES.txt, rendered.
	Notes string `json:"notes,omitempty"`
}

// RenderedChart names the chart rendered and the digest of what was read: SHA-256 of the
// archive, or for a directory of every file loaded in order (each name and content preceded by
// its length, big-endian 64 bits).
type RenderedChart struct {
	Name       string `json:"name"`
	Version    string `json:"version"`
	AppVersion string `json:"appVersion,omitempty"`
	Digest     string `json:"digest"`
}

// Hook is one hook document, with what Helm reads from its annotations.
type Hook struct {
	Path              string   `json:"path"`
	Kind              string   `json:"kind"`
	Name              string   `json:"name"`
	Events            []string `json:"events"`
	Weight            int      `json:"weight"`
	DeletePolicies    []string `json:"deletePolicies,omitempty"`
	OutputLogPolicies []string `json:"outputLogPolicies,omitempty"`
	Manifest          string   `json:"manifest"`
}

// Response is the outcome of one build.
type Response struct {
	Objects  []json.RawMessage `json:"objects,omitempty"`
	YAML     string            `json:"yaml,omitempty"`
	Rendered *Rendered         `json:"rendered,omitempty"`
	Error    *Failure          `json:"error,omitempty"`
	Probe    *ProbeResult      `json:"probe,omitempty"`
}

// Failure says which step failed, and kustomize's (or Flux's) message for it.
type Failure struct {
	Stage   Stage  `json:"stage"`
	Message string `json:"message"`
}

// Stage names the step of a build that failed.
type Stage string

const (
	StagePath       Stage = "path"       // the path is missing or not a directory
	StageRequest    Stage = "request"    // the JVM sent something that is not a request
	StageGenerate   Stage = "generate"   // the kustomization could not be found or generated
	StageKustomize  Stage = "kustomize"  // kustomize's build failed
	StageObject     Stage = "object"     // an object has no apiVersion, kind or name
	StageSubstitute Stage = "substitute" // postBuild substitution failed
	StageOutput     Stage = "output"     // the result could not be encoded
	StageChart      Stage = "chart"      // the chart could not be loaded, or lacks a dependency
	StageValues     Stage = "values"     // a values document is not YAML
	StageRender     Stage = "render"     // Helm's render failed (a template, the values' schema)
	StageVersion    Stage = "version"    // the chart's version is not the tag it was pulled by
)
