package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

// corpus is the build corpus of the applier's tests: kustomizations of every kind.
const corpus = "../../applier/src/test/resources/kustomize-corpus"

// TestObjectsAreFluxs checks, for every case of the corpus that builds, that the objects handed to
// the applier are those Flux applies: kustomize's YAML for each object read back as Kubernetes
// reads YAML (YAMLToJSON(AsYAML)), and that decoding the node directly gives what
// RNode.MarshalJSON gives.
func TestObjectsAreFluxs(t *testing.T) {
	cases, err := os.ReadDir(corpus)
	if err != nil {
		t.Fatalf("the corpus is missing: %v", err)
	}
	built := 0
	for _, c := range cases {
		dir, _ := filepath.Abs(filepath.Join(corpus, c.Name()))
		if !c.IsDir() || exists(filepath.Join(dir, "EXPECT_ERROR")) {
			continue
		}
		t.Run(c.Name(), func(t *testing.T) {
			b := newBuilder(dir)
			fs := newLayeredFS(filesys.MakeFsOnDisk())
			if _, err := generateKustomization(fs, dir, Spec{}); err != nil {
				t.Fatal(err)
			}
			m, err := b.kustomize(fs, dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, res := range m.Resources() {
				direct, err := nodeJSON(res)
				if err != nil {
					t.Fatal(err)
				}
				viaText, err := res.MarshalJSON()
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(direct, viaText) {
					t.Errorf("%s: node decoded directly\n%s\nbut through its YAML\n%s", res.CurId(), direct, viaText)
				}
				text, err := res.AsYAML()
				if err != nil {
					t.Fatal(err)
				}
				flux, err := yaml.YAMLToJSON(text)
				if err != nil {
					t.Fatal(err)
				}
				if !sameJSON(t, direct, flux) {
					t.Errorf("%s: objects differ from Flux's\n%s\n%s", res.CurId(), direct, flux)
				}
			}
			built++
		})
	}
	if built < 100 {
		t.Fatalf("only %d cases of the corpus were built", built)
	}
}

func sameJSON(t *testing.T, a, b []byte) bool {
	var x, y interface{}
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(x, y)
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// TestMessagesDoNotQuoteWhatTheDecoderCouldNotRead: an alias's name or a scalar the YAML decoder
// quotes may be a Secret's value.
func TestMessagesDoNotQuoteWhatTheDecoderCouldNotRead(t *testing.T) {
	b := newBuilder("/artifact")
	for _, m := range []string{
		"MalformedYAMLError: yaml: unknown anchor 'S3CRET-ANCHOR' referenced in File: cm.yaml",
		"yaml: unmarshal errors:\n  line 3: cannot unmarshal !!str `S3CRET-VALUE` into int",
		"kustomize build failed: error parsing regexp: unexpected ): `^(?:S3CRET)^)$`",
	} {
		if got := b.cleanMessage(m); strings.Contains(got, "S3CRET") {
			t.Errorf("%q became %q", m, got)
		}
	}
	if got := b.cleanMessage("yaml: unknown anchor 'x' referenced"); got != "yaml: unknown anchor referenced" {
		t.Errorf("got %q", got)
	}
	if got := b.cleanMessage("configmap settings illegally repeats the key `LOG_LEVEL`"); !strings.Contains(got, "`LOG_LEVEL`") {
		t.Errorf("kustomize's own message lost the key it names: %q", got)
	}
}
