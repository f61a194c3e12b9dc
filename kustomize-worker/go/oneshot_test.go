//go:build helm

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// runOneShot runs `capstan-chart-worker template ARGS` (this test binary acting as the worker):
// its standard output, standard error and exit status.
func runOneShot(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	for _, arg := range args {
		if strings.ContainsAny(arg, " \t\n") {
			t.Fatalf("an argument with white space cannot be passed: %q", arg)
		}
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), actAsWorker+"=1",
		actAsWorker+"_ARGS=template "+strings.Join(args, " "))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return stdout.String(), stderr.String(), code
}

// The command's arguments as its parser reads them, and what is left to it.
func TestChartCommandArgumentsAreReadAsTheCommandReadsThem(t *testing.T) {
	got, ok := parseChartCommand([]string{"--values", "a.yaml", "chart", "-f", "b.yaml",
		"--set=x=1,y=2", "--set", "z=3", "--release-name", "web", "-n", "shop", "--kube-version=1.30",
		"-a", "a/v1,b/v1", "--api-versions", "c/v1", "--include-crds", "--skip-tests", "--no-hooks",
		"--is-upgrade", "--skip-schema-validation"})
	want := chartCommand{chart: "chart", values: []string{"a.yaml", "b.yaml"},
		set: []string{"x=1,y=2", "z=3"}, releaseName: "web", namespace: "shop", kubeVersion: "1.30",
		apiVersions: []string{"a/v1", "b/v1", "c/v1"}, includeCRDs: true, skipTests: true,
		noHooks: true, isUpgrade: true, skipSchemaValidation: true}
	if !ok || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v (%v), want %+v", got, ok, want)
	}
	defaults, ok := parseChartCommand([]string{"chart"})
	if !ok || defaults.releaseName != "release-name" || defaults.namespace != "default" {
		t.Fatalf("defaults: %+v (%v)", defaults, ok)
	}
	for _, args := range [][]string{
		{},
		{"a", "b"},
		{"chart", "--help"},
		{"chart", "-h"},
		{"chart", "--version"},
		{"chart", "--unknown"},
		{"chart", "--release-name", "a", "--release-name", "b"},
		{"chart", "--include-crds", "--include-crds"},
		{"chart", "--include-crds=true"},
		{"chart", "--release-name"},
		{"chart", "--release-name", "-x"},
		{"chart", "-fvalues.yaml"},
		{"chart", "-f=values.yaml"},
		{"chart", "--values", ""},
		{"@args"},
		{"chart", "--set", "@x"},
		{"--", "chart"},
		{"chart", "-a", "a/v1,,b/v1"},
		{"chart", "-a", `"a/v1,b/v1"`},
	} {
		if c, ok := parseChartCommand(args); ok {
			t.Errorf("%q was taken as %+v; the command's parser must read it", args, c)
		}
	}
}

// What the command prints: helm template's output for a directory and an archive, with values
// files and every option.
func TestTheOneShotModePrintsWhatHelmTemplatePrints(t *testing.T) {
	helm := referenceHelm(t)
	root := chartRoot(t)
	valuesFile := filepath.Join(t.TempDir(), "values.yaml")
	writeFile(t, valuesFile, []byte(appValues[0]))
	r := Render{ReleaseName: "web", Namespace: "shop", Values: []string{appValues[0]},
		Set: []string{"image.tag=2.0", "sub.message=set"}, KubeVersion: "1.30",
		APIVersions: []string{"example.com/v1"}, IncludeCRDs: true, IsUpgrade: true}
	for _, chart := range []string{"app", "app.tgz"} {
		want, ok := helmTemplate(t, helm, root, chart, r)
		if !ok {
			t.Fatalf("helm template %s: %s", chart, want)
		}
		out, stderr, code := runOneShot(t, filepath.Join(root, chart), "-f", valuesFile,
			"--set", "image.tag=2.0", "--set", "sub.message=set", "--release-name", "web", "-n", "shop",
			"--kube-version", "1.30", "--api-versions", "example.com/v1", "--include-crds",
			"--is-upgrade")
		if code != 0 || out != want {
			t.Errorf("%s: exit %d, stderr %q; output equal to helm template's: %v", chart, code,
				stderr, out == want)
		}
	}
}

// Failures are the command's: its message on standard error, its exit status, nothing printed on
// standard output; arguments it does not take are left to the JVM with nothing printed.
func TestTheOneShotModeFailsAsTheCommandFails(t *testing.T) {
	root := chartRoot(t)
	notUTF8 := filepath.Join(t.TempDir(), "latin1.yaml")
	writeFile(t, notUTF8, []byte("name: caf\xe9\n"))
	for _, c := range []struct {
		name   string
		args   []string
		stderr string
		code   int
	}{
		{"no chart", []string{root + "//missing/"},
			"capstan build chart: no chart at " + root + "/missing\n", exitBadInput},
		{"a values file that is not there", []string{filepath.Join(root, "app"), "-f", root + "/none.yaml"},
			"capstan build chart: cannot read the values file " + root + "/none.yaml\n", exitBadInput},
		{"a values file that is not UTF-8", []string{filepath.Join(root, "app"), "--values", notUTF8},
			"capstan build chart: the values file " + notUTF8 + " is not UTF-8 text\n", exitBadInput},
		{"a template's failure", []string{filepath.Join(root, "needs"), "--release-name", "db"},
			"capstan build chart: render: execution error at (needs/templates/secret.yaml:6:15): " +
				"password is required\n", exitBadInput},
		{"no release name", []string{filepath.Join(root, "app"), "--release-name="},
			"capstan build chart: request: a render needs a release name\n", exitBadInput},
		{"help", []string{filepath.Join(root, "app"), "--help"}, "", exitFallback},
	} {
		out, stderr, code := runOneShot(t, c.args...)
		if out != "" || stderr != c.stderr || code != c.code {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit %d, stderr %q", c.name, code, out,
				stderr, c.code, c.stderr)
		}
	}
}

// A string of the answer reads as the JVM reads it from JSON: each invalid byte one U+FFFD.
func TestTextIsAsTheJVMReadsItFromJSON(t *testing.T) {
	if got := jsonText("a\xff\xfeb\u00e9"); got != "a\ufffd\ufffdb\u00e9" {
		t.Errorf("jsonText: %q", got)
	}
	for path, want := range map[string]string{"a//b/": "a/b", "/": "/", "./c": "./c", "d": "d"} {
		if got := javaPath(path); got != want {
			t.Errorf("javaPath(%q) = %q, want %q", path, got, want)
		}
	}
}
