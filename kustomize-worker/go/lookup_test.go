//go:build helm

package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// callAnswering sends a request and answers the worker's questions with answer until the
// request's own answer comes.
func (w *workerProcess) callAnswering(req Request, answer func(LookupQuery) LookupAnswer) (Response, []LookupQuery) {
	w.t.Helper()
	w.next++
	body, _ := json.Marshal(req)
	if err := writeFrame(w.in, frame{id: w.next, body: body}); err != nil {
		w.t.Fatal(err)
	}
	var asked []LookupQuery
	for {
		f, err := readFrame(w.out)
		if err != nil || f.id != w.next {
			w.t.Fatalf("no answer to request %d: %v (frame %d)", w.next, err, f.id)
		}
		if !bytes.HasPrefix(f.body, []byte(`{"question":`)) {
			var resp Response
			if err := json.Unmarshal(f.body, &resp); err != nil {
				w.t.Fatal(err)
			}
			return resp, asked
		}
		var q struct {
			Question Question `json:"question"`
		}
		if err := json.Unmarshal(f.body, &q); err != nil || q.Question.Lookup == nil {
			w.t.Fatalf("a question that is no lookup: %s", f.body)
		}
		asked = append(asked, *q.Question.Lookup)
		reply, _ := json.Marshal(answer(*q.Question.Lookup))
		if err := writeFrame(w.in, frame{id: w.next, body: reply}); err != nil {
			w.t.Fatal(err)
		}
	}
}

// A chart's lookup asks the host, which answers with the object, a list, or nothing (an empty
// map, as Helm's lookup gives for an object that does not exist); a failure it answers fails the
// template; without lookups the worker asks nothing and lookup finds nothing, as helm template.
func TestLookupAsksTheHost(t *testing.T) {
	root := chartRoot(t)
	w := startWorker(t, "--root", root)
	secret := `{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "credentials", "namespace": "shop"},
		"data": {"password": "aHVudGVyMg=="}}`
	list := `{"apiVersion": "v1", "kind": "ConfigMapList", "metadata": {"resourceVersion": "12"}, "items": []}`
	req := Request{Root: root, Path: "lookup", Render: &Render{ReleaseName: "r", Namespace: "shop", Lookups: true}}
	resp, asked := w.callAnswering(req, func(q LookupQuery) LookupAnswer {
		if q.Name == "" {
			return LookupAnswer{Found: json.RawMessage(list)}
		}
		return LookupAnswer{Found: json.RawMessage(secret)}
	})
	if resp.Error != nil {
		t.Fatalf("render: %+v", resp.Error)
	}
	want := []LookupQuery{{"v1", "Secret", "shop", "credentials"}, {"v1", "ConfigMap", "", ""}}
	if len(asked) != 2 || asked[0] != want[0] || asked[1] != want[1] {
		t.Errorf("asked %+v", asked)
	}
	for _, line := range []string{`found: "yes"`, `listed: "4"`, `password: "hunter2"`} {
		if !strings.Contains(resp.Rendered.Manifest, line) {
			t.Errorf("the manifest lacks %s:\n%s", line, resp.Rendered.Manifest)
		}
	}

	resp, _ = w.callAnswering(req, func(LookupQuery) LookupAnswer { return LookupAnswer{Missing: true} })
	if resp.Error != nil || !strings.Contains(resp.Rendered.Manifest, `found: "no"`) ||
		!strings.Contains(resp.Rendered.Manifest, `listed: "0"`) {
		t.Errorf("missing: %+v %+v", resp.Error, resp.Rendered)
	}

	resp, _ = w.callAnswering(req, func(LookupQuery) LookupAnswer {
		return LookupAnswer{Error: "v1 Secret 'shop/credentials' cannot be read: forbidden"}
	})
	if resp.Error == nil || resp.Error.Stage != StageRender ||
		!strings.Contains(resp.Error.Message, "lookup/templates/secret.yaml:1") ||
		!strings.Contains(resp.Error.Message, "forbidden") {
		t.Errorf("refused: %+v", resp.Error)
	}

	req.Render.Lookups = false
	resp, asked = w.callAnswering(req, func(LookupQuery) LookupAnswer { return LookupAnswer{Missing: true} })
	if resp.Error != nil || len(asked) != 0 || !strings.Contains(resp.Rendered.Manifest, `found: "no"`) {
		t.Errorf("without lookups: asked %v, %+v", asked, resp.Error)
	}
}
