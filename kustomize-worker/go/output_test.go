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
		"kustomize build failed: unable to parse requirement: found 'S3CRET-pz4mv', expected: '=', '!=', '==', 'in', notin'",
		"kustomize build failed: unable to parse requirement: invalid label key \"/S3CRET-x\": prefix part must be non-empty",
		"unable to parse requirement: invalid label value: \"S3CRET \\\" y\": at key: \"S3CRET-k\": a valid label must be",
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

// TestALiteralThatIsNotKeyValueIsNamedByItsGeneratorNeverQuoted: kustomize's message quotes the
// literal and every other literal of the generator, which are a Secret's values.
func TestALiteralThatIsNotKeyValueIsNamedByItsGeneratorNeverQuoted(t *testing.T) {
	root := tree(t, map[string]string{
		"app/kustomization.yaml": "resources: [../base]\nsecretGenerator:\n- name: fine\n  literals: [a=b]\n",
		"base/kustomization.yaml": "secretGenerator:\n- name: db-credentials\n" +
			"  literals: [user=admin, S3CRET-NO-EQUALS, password=S3CRET-PASSWORD]\n",
		"lead/kustomization.yaml": "configMapGenerator:\n- name: settings\n  literals: [=S3CRET-AFTER-EQUALS]\n",
	})
	for path, want := range map[string]string{
		"app":  "recursed accumulation of path 'base': loading KV pairs: secretGenerator 'db-credentials' in base/kustomization.yaml: a literal has no '=' between its key and its value (literals are not shown)",
		"lead": "kustomize build failed: loading KV pairs: configMapGenerator 'settings' in lead/kustomization.yaml: a literal has no key before its '=' (literals are not shown)",
	} {
		got := newBuilder(root).build(Request{Path: path})
		if got.Error == nil {
			t.Fatalf("%s: the build succeeded", path)
		}
		if !strings.HasSuffix(got.Error.Message, want) {
			t.Errorf("%s: got %q, want it to end in %q", path, got.Error.Message, want)
		}
		if strings.Contains(got.Error.Message, "S3CRET") || strings.Contains(got.Error.Message, "admin") {
			t.Errorf("%s: a literal is quoted: %q", path, got.Error.Message)
		}
	}
}

// TestMessagesQuotingLiteralsOrEnvLinesAreCutWhereverTheyComeFrom: the same message shape from a
// generator the worker cannot name (a builtin configuration), and an env line that is not UTF-8
// (kustomize prints its bytes as numbers and as text), never reach a status.
func TestMessagesQuotingLiteralsOrEnvLinesAreCutWhereverTheyComeFrom(t *testing.T) {
	b := newBuilder("/artifact")
	for m, want := range map[string]string{
		"loading KV pairs: literal sources [x=1 S3CRET y=]: invalid literal source S3CRET, expected key=value":      "loading KV pairs: a literal of a generator is not key=value (literals are not shown)",
		"literal sources [a=b, expected key=value S3CRET]: invalid literal source S3CRET, expected key=value; more": "a literal of a generator is not key=value (literals are not shown); more",
		"env source files: [app.env]: line [83 51 67 255] has invalid utf8 bytes : S3C\xffRET":                      "env source files: [app.env]: a line has invalid UTF-8 bytes (the line is not shown)",
		"configmap settings illegally repeats the key `LOG_LEVEL`":                                                  "configmap settings illegally repeats the key `LOG_LEVEL`",
	} {
		if got := b.cleanMessage(m); got != want {
			t.Errorf("%q became %q, want %q", m, got, want)
		}
	}
}

// TestAnEnvLineThatIsNotUTF8IsNotQuoted: the env file may be a decrypted SOPS input, and the
// engine cannot mask the line's bytes printed as numbers.
func TestAnEnvLineThatIsNotUTF8IsNotQuoted(t *testing.T) {
	root := tree(t, map[string]string{
		"app/kustomization.yaml": "secretGenerator:\n- name: creds\n  envs: [app.env]\n",
		"app/app.env":            "USER=admin\nPASSWORD=S3C\xffRET\n",
	})
	got := newBuilder(root).build(Request{Path: "app"})
	want := "kustomize build failed: loading KV pairs: env source files: [app.env]: a line has invalid UTF-8 bytes (the line is not shown)"
	if got.Error == nil || got.Error.Message != want {
		t.Fatalf("got %+v, want %q", got.Error, want)
	}
}
