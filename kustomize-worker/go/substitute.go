package main

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/fluxcd/pkg/envsubst"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/yaml"
)

// Objects labelled or annotated with one of these keys set to "disabled" are not substituted.
var substituteSwitches = []string{"kustomize.toolkit.fluxcd.io/substitute", "kustomize.capstan.dev/substitute"}

var variableName = regexp.MustCompile(`^[_[:alpha:]][_[:alpha:][:digit:]]*$`)

// variables merges postBuild's sources as Flux does: substituteFrom in order, then substitute on
// top; newlines are removed from every value.
func (p *PostBuild) variables() map[string]string {
	vars := map[string]string{}
	for _, source := range p.SubstituteFrom {
		for k, v := range source {
			vars[k] = strings.ReplaceAll(v, "\n", "")
		}
	}
	for k, v := range p.Substitute {
		vars[k] = strings.ReplaceAll(v, "\n", "")
	}
	return vars
}

// substitute replaces ${VAR} expressions in the object's YAML text (as kustomize writes it, so a
// quoted "${N}" stays a string and a bare ${N} takes the type of its value), then reads the
// result back into res. It does nothing when there are no variables, unless always is set.
func substitute(res *resource.Resource, vars map[string]string, always, strict bool) error {
	if disabled(res) || (len(vars) == 0 && !always) {
		return nil
	}
	text, err := res.AsYAML()
	if err != nil {
		return err
	}
	data, err := substituteText(text, vars, strict)
	if err != nil {
		return fmt.Errorf("envsubst error: %w", err)
	}
	if err := res.UnmarshalJSON(data); err != nil {
		return fmt.Errorf("UnmarshalJSON: %w", err)
	}
	return nil
}

// substituteText substitutes the variables in one object's YAML and returns it as JSON. In
// strict mode a variable without a value fails, unless its expression gives a default
// (${VAR:=x}, ${VAR:-x} and the like): envsubst asks whether the variable exists.
func substituteText(text []byte, vars map[string]string, strict bool) ([]byte, error) {
	for name := range vars {
		if !variableName.MatchString(name) {
			return nil, fmt.Errorf("'%s' var name is invalid, must match '%s'", name, variableName.String())
		}
	}
	out, err := envsubst.Eval(string(text), func(name string) (string, bool) {
		value, exists := vars[name]
		return value, exists || !strict
	})
	if err != nil {
		return nil, fmt.Errorf("variable substitution failed: %w", err)
	}
	data, err := yaml.YAMLToJSON([]byte(out))
	if err != nil {
		return nil, fmt.Errorf("YAMLToJSON: %w", err)
	}
	return data, nil
}

func disabled(res *resource.Resource) bool {
	labels, annotations := res.GetLabels(), res.GetAnnotations()
	for _, key := range substituteSwitches {
		if labels[key] == "disabled" || annotations[key] == "disabled" {
			return true
		}
	}
	return false
}
