package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	kustypes "sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/kustomize/kyaml/openapi"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
)

// builder runs Flux's build of directories below one artifact root, one build at a time.
type builder struct {
	root string
	// defaultSchema is the OpenAPI schema version kustomize uses when a kustomization names none.
	defaultSchema string
	// schemaDirty is true when the last build may have left another OpenAPI schema loaded.
	schemaDirty bool
	// ask sends the host a question during the current request and gives its answer (see
	// Question); nil outside a request.
	ask func(question []byte) ([]byte, error)
}

func newBuilder(root string) *builder {
	resetSchema()
	return &builder{root: filepath.Clean(root), defaultSchema: openapi.GetSchemaVersion()}
}

// resetSchema leaves kustomize's global OpenAPI schema as a new process has it, with the built-in
// Kubernetes schema parsed (as Flux starts every build).
func resetSchema() {
	openapi.ResetOpenAPI()
	_ = openapi.Schema()
}

func (b *builder) build(req Request) Response {
	resp, failure := b.run(req)
	if failure != nil {
		failure.Message = b.cleanMessage(failure.Message)
		return Response{Error: failure}
	}
	return resp
}

func (b *builder) run(req Request) (Response, *Failure) {
	dir := filepath.Join(b.root, filepath.Join(string(filepath.Separator), req.Path))
	artifact := newArtifactFS(b.root)
	if _, info, err := artifact.lookup("stat", dir); err != nil {
		return Response{}, &Failure{StagePath, "kustomization path not found: " + err.Error()}
	} else if !info.IsDir() {
		return Response{}, &Failure{StagePath, "kustomization path " + dir + " is not a directory"}
	}
	fs := newLayeredFS(artifact)
	if err := overlay(fs, artifact, req.Files); err != nil {
		return Response{}, &Failure{StageRequest, err.Error()}
	}
	listed, err := generateKustomization(fs, dir, req.Spec)
	if err != nil {
		return Response{}, &Failure{StageGenerate, err.Error()}
	}
	m, err := b.kustomize(fs, dir)
	if err != nil {
		if listed {
			if bad := checkManifests(fs, dir); bad != nil {
				return Response{}, &Failure{StageGenerate, bad.Error()}
			}
		}
		message := hideLiterals(err.Error(), func(quoted string) (string, bool) {
			return findLiteralGenerator(fs, dir, quoted)
		})
		return Response{}, &Failure{StageKustomize, "kustomize build failed: " + explain(message)}
	}
	if failure := finish(m, req); failure != nil {
		return Response{}, failure
	}
	if req.Output == "yaml" {
		text, err := m.AsYaml()
		if err != nil {
			return Response{}, &Failure{StageOutput, err.Error()}
		}
		return Response{YAML: string(text)}, nil
	}
	objects, err := applierObjects(m)
	if err != nil {
		return Response{}, &Failure{StageOutput, err.Error()}
	}
	return Response{Objects: objects}, nil
}

// kustomize runs kustomize's build with Flux's options: no load restrictions inside the artifact,
// no plugins, no managed-by label, resources in the order the kustomizations list them.
func (b *builder) kustomize(fs filesys.FileSystem, dir string) (m resmap.ResMap, err error) {
	if b.schemaDirty {
		resetSchema()
	}
	b.schemaDirty = true
	defer func() {
		if r := recover(); r != nil {
			m, err = nil, fmt.Errorf("recovered from kustomize build panic: %v", r)
		}
	}()
	k := krusty.MakeKustomizer(&krusty.Options{
		LoadRestrictions: kustypes.LoadRestrictionsNone,
		PluginConfig:     kustypes.DisabledPluginConfig(),
	})
	m, err = k.Run(fs, dir)
	// A build whose kustomizations set no OpenAPI schema leaves the global one as it found it,
	// so the next build can skip parsing it again.
	b.schemaDirty = openapi.GetSchemaVersion() != b.defaultSchema
	return m, err
}

// explain puts first, in kustomize's message, what Capstan refuses: remote resources and files
// (always; Flux only with a flag), and Helm charts (as Flux). Without it the message would speak of a missing git program, a lookup on a
// network that does not exist, or a command-line flag.
func explain(message string) string {
	for field, prefix := range map[string]string{
		"resources":  "accumulating resources from '",
		"components": "accumulating components from '",
	} {
		if i := strings.Index(message, prefix); i >= 0 {
			rest := message[i+len(prefix):]
			if end := strings.IndexByte(rest, '\''); end > 0 && !isLocalRelativePath(rest[:end]) {
				// the URL is the tenant's text: named by its field, not quoted
				return "remote resources are not supported: a URL in " + field +
					" is never fetched (fetch it with a GitRepository instead)"
			}
		}
	}
	if refused, ok := remoteLoadMessage(message); ok {
		return refused
	}
	if strings.Contains(message, "must specify --enable-helm") {
		return "helmCharts are not supported (charts are not inflated by the build): " + message
	}
	return message
}

// finish is what Flux does to kustomize's output: every object must have an apiVersion, kind and
// name; then postBuild substitution; then commonMetadata.
func finish(m resmap.ResMap, req Request) *Failure {
	var vars map[string]string
	if req.PostBuild != nil {
		vars = req.PostBuild.variables()
	}
	for _, res := range m.Resources() {
		if res.GetName() == "" || res.GetKind() == "" || res.GetApiVersion() == "" {
			return &Failure{StageObject, fmt.Sprintf(
				"failed to decode Kubernetes apiVersion, kind and name of an object (apiVersion %q, kind %q, name %q)",
				short(res.GetApiVersion()), short(res.GetKind()), short(res.GetName()))}
		}
		if req.PostBuild != nil {
			if err := substitute(res, vars, req.PostBuild.Always, req.PostBuild.Strict); err != nil {
				return &Failure{StageSubstitute, fmt.Sprintf("post build failed for '%s/%s': %v",
					res.GetGvk(), res.GetName(), err)}
			}
		}
		if cm := req.Spec.CommonMetadata; cm != nil {
			if err := setCommonMetadata(res, cm); err != nil {
				return &Failure{StageOutput, err.Error()}
			}
		}
	}
	return nil
}

// setCommonMetadata adds labels and annotations to the object's metadata only (never to
// selectors or templates), replacing values of the same keys.
func setCommonMetadata(res *resource.Resource, cm *CommonMetadata) error {
	if len(cm.Labels) > 0 {
		labels := res.GetLabels()
		for k, v := range cm.Labels {
			labels[k] = v
		}
		if err := res.SetLabels(labels); err != nil {
			return err
		}
	}
	if len(cm.Annotations) > 0 {
		annotations := res.GetAnnotations()
		for k, v := range cm.Annotations {
			annotations[k] = v
		}
		if err := res.SetAnnotations(annotations); err != nil {
			return err
		}
	}
	return nil
}

// nodeJSON is what RNode.MarshalJSON gives (the node written as YAML, read back into a map, then
// encoded as JSON), with the node decoded directly: the YAML written for a node reads back as the
// same node, so the text in between changes nothing (output_test.go checks it on the corpus).
func nodeJSON(res *resource.Resource) ([]byte, error) {
	node := res.YNode()
	if node.Kind == kyaml.SequenceNode {
		var list []interface{}
		if err := node.Decode(&list); err != nil {
			return nil, err
		}
		return json.Marshal(list)
	}
	object := map[string]interface{}{}
	if err := node.Decode(&object); err != nil {
		return nil, err
	}
	return json.Marshal(object)
}

// applierObjects turns the build into the objects Flux applies, lists expanded and kustomize's
// own configuration objects left out. Flux reads them back from kustomize's YAML
// (YAMLToJSON(AsYAML)); that YAML is made from the object's JSON (AsYAML is
// JSONToYAML(MarshalJSON)) and the two conversions undo each other, so the JSON is taken directly
// (output_test.go checks that both give the same objects for every case of the corpus).
func applierObjects(m resmap.ResMap) ([]json.RawMessage, error) {
	var objects []json.RawMessage
	for _, res := range m.Resources() {
		data, err := nodeJSON(res)
		if err != nil {
			return nil, fmt.Errorf("object '%s/%s' cannot be encoded: %w", res.GetGvk(), res.GetName(), err)
		}
		expanded, err := expandList(data)
		if err != nil {
			return nil, err
		}
		objects = append(objects, expanded...)
	}
	return objects, nil
}

type objectHead struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name string `json:"name"`
	} `json:"metadata"`
	Items json.RawMessage `json:"items"`
}

func expandList(data []byte) ([]json.RawMessage, error) {
	var head objectHead
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, err
	}
	var items []json.RawMessage
	if len(head.Items) > 0 && json.Unmarshal(head.Items, &items) == nil {
		var out []json.RawMessage
		for _, item := range items {
			expanded, err := expandList(item)
			if err != nil {
				return nil, err
			}
			out = append(out, expanded...)
		}
		return out, nil
	}
	if head.APIVersion == "" || head.Kind == "" || head.Metadata.Name == "" ||
		(strings.EqualFold(head.Kind, "kustomization") && strings.HasPrefix(head.APIVersion, "kustomize.config.k8s.io/")) {
		return nil, nil
	}
	return []json.RawMessage{data}, nil
}

// cleanMessage makes a message fit for a status condition: paths relative to the artifact root,
// no dump of a YAML node's contents (which may hold Secret data), no generator literal or env
// line kustomize quotes, no control characters, bounded.
func (b *builder) cleanMessage(message string) string {
	message = hideLiterals(message, nil)
	if i := strings.Index(message, "node contents:"); i >= 0 {
		message = strings.TrimSpace(message[:i]) + " (contents not shown)"
	}
	// Decoders quote what they could not read: an alias's name, a scalar's value (YAML), a
	// pattern (regexp). kustomize's own messages name keys and files, which stay.
	message = unknownAnchor.ReplaceAllString(message, "unknown anchor")
	message = quotedScalar.ReplaceAllString(message, "$1 (value not shown)")
	message = quotedPattern.ReplaceAllString(message, "${1}(pattern not shown)")
	// A patch target's labelSelector or annotationSelector that cannot be parsed is quoted by
	// the selector parser: the token it stopped at, the key or value it refused.
	message = selectorToken.ReplaceAllString(message, "found a token (not shown), expected")
	message = selectorPart.ReplaceAllString(message, "invalid label $1 (not shown)")
	message = selectorKey.ReplaceAllString(message, "at key (not shown)")
	message = strings.ReplaceAll(message, b.root+string(filepath.Separator), "")
	message = strings.ReplaceAll(message, b.root, ".")
	message = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return ' '
		}
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, message)
	const limit = 2000
	if len(message) > limit {
		message = strings.ToValidUTF8(message[:limit], "") + "…"
	}
	return message
}

var (
	unknownAnchor = regexp.MustCompile(`unknown anchor '[^']*'`)
	quotedScalar  = regexp.MustCompile("(!!\\w+) `[^`]*`")
	quotedPattern = regexp.MustCompile("(error parsing regexp: [^`]*)`[^`]*`")
	selectorToken = regexp.MustCompile(`(?s)found '.*?', expected`)
	selectorPart  = regexp.MustCompile(`invalid label (key|value):? "(?:[^"\\]|\\.)*"`)
	selectorKey   = regexp.MustCompile(`at key: "(?:[^"\\]|\\.)*"`)
)

func short(s string) string {
	if len(s) > 100 {
		return strings.ToValidUTF8(s[:100], "") + "…"
	}
	return s
}
