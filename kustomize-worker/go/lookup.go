//go:build helm

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"text/template"

	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// lookupFuncs replaces Helm's `lookup` (which, in `helm template`, finds nothing) with one that
// asks the host: the worker has no network and no cluster access, so the JVM reads the object
// with the identity its caller chose (read-only GET, or LIST without a name) and answers before
// the render goes on. Its answer is Helm's: the object, the list, or an empty map for an object
// that does not exist; any other failure fails the template, as Helm's lookup does against a
// cluster. The host bounds the answers' number, size and time.
func (b *builder) lookupFuncs() template.FuncMap {
	return template.FuncMap{"lookup": func(apiVersion, kind, namespace, name string) (map[string]any, error) {
		if b.ask == nil {
			return map[string]any{}, errors.New("lookup: this render cannot ask its host")
		}
		question, err := json.Marshal(map[string]Question{"question": {Lookup: &LookupQuery{
			APIVersion: apiVersion, Kind: kind, Namespace: namespace, Name: name}}})
		if err != nil {
			return map[string]any{}, err
		}
		body, err := b.ask(question)
		if err != nil {
			return map[string]any{}, fmt.Errorf("lookup: the host did not answer: %w", err)
		}
		var answer LookupAnswer
		if err := json.Unmarshal(body, &answer); err != nil {
			return map[string]any{}, errors.New("lookup: the host's answer cannot be read")
		}
		switch {
		case answer.Error != "":
			return map[string]any{}, errors.New(answer.Error)
		case answer.Missing || len(answer.Found) == 0:
			return map[string]any{}, nil
		}
		// numbers as a Kubernetes client gives them: int64 where whole, else float64
		object := map[string]any{}
		if err := utiljson.Unmarshal(answer.Found, &object); err != nil {
			return map[string]any{}, errors.New("lookup: the object the host answered cannot be read")
		}
		return object, nil
	}}
}
