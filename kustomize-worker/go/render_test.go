//go:build helm

package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"helm.sh/helm/v4/pkg/chart/loader/archive"
)

// referenceHelm is `helm` of the pinned version, as `kustomize-worker/build helm` builds it.
func referenceHelm(t *testing.T) string {
	t.Helper()
	mod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	version := ""
	for _, line := range strings.Split(string(mod), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "helm.sh/helm/v4" {
			version = strings.TrimPrefix(f[1], "v")
		}
	}
	home, _ := os.UserHomeDir()
	helm := filepath.Join(home, ".cache", "capstan", "bin", "helm-"+version)
	if _, err := os.Stat(helm); err != nil {
		t.Skipf("no reference helm at %s: build it with `kustomize-worker/build helm`", helm)
	}
	return helm
}

// chartRoot is a worker root holding the test charts, and app.tgz, the app chart packed.
func chartRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(root, os.DirFS("testdata/charts")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(root, "app.tgz"), packChart(t, filepath.Join(root, "app"), nil))
	return root
}

// packChart packs dir as `helm package` lays a chart out (every file below a top directory
// named as the chart), with extra entries after its files.
func packChart(t *testing.T, dir string, extra []*tar.Header) []byte {
	t.Helper()
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	tw := tar.NewWriter(zw)
	top := filepath.Base(dir)
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		hd := &tar.Header{Name: top + "/" + filepath.ToSlash(rel), Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg}
		if err := tw.WriteHeader(hd); err != nil {
			return err
		}
		_, err = tw.Write(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, hd := range extra {
		if err := tw.WriteHeader(hd); err != nil {
			t.Fatal(err)
		}
		if hd.Size > 0 {
			tw.Write(bytes.Repeat([]byte("x"), int(hd.Size)))
		}
	}
	tw.Close()
	zw.Close()
	return out.Bytes()
}

// helmTemplate runs the reference `helm template` with the render's options: its output, or
// its error output and false.
func helmTemplate(t *testing.T, helm, root, chart string, r Render) (string, bool) {
	t.Helper()
	args := []string{"template", r.ReleaseName, filepath.Join(root, chart), "--namespace", r.Namespace}
	for i, values := range r.Values {
		file := filepath.Join(t.TempDir(), "values"+string(rune('a'+i))+".yaml")
		writeFile(t, file, []byte(values))
		args = append(args, "-f", file)
	}
	for _, set := range r.Set {
		args = append(args, "--set", set)
	}
	if r.KubeVersion != "" {
		args = append(args, "--kube-version", r.KubeVersion)
	}
	for _, v := range r.APIVersions {
		args = append(args, "--api-versions", v)
	}
	flags := map[string]bool{"--include-crds": r.IncludeCRDs, "--skip-tests": r.SkipTests,
		"--no-hooks": r.DisableHooks, "--is-upgrade": r.IsUpgrade}
	for flag, on := range flags {
		if on {
			args = append(args, flag)
		}
	}
	home := t.TempDir()
	cmd := exec.Command(helm, args...)
	cmd.Env = []string{"HOME=" + home, "HELM_CONFIG_HOME=" + home, "HELM_CACHE_HOME=" + home, "HELM_DATA_HOME=" + home,
		"KUBECONFIG=" + filepath.Join(home, "none")}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stderr.String(), false
	}
	return stdout.String(), true
}

func render(w *workerProcess, root, chart string, r Render) Response {
	w.t.Helper()
	return w.call(Request{Root: root, Path: chart, Render: &r})
}

var appValues = []string{
	"replicas: 3\nimage:\n  tag: \"1.0\"\nsub:\n  message: first layer\n",
	`{"extraLabels": {"team": "a"}, "global": {"team": "blue"}, "sub": {"message": "second layer"}}`,
}

// Every render equals `helm template` of the pinned Helm byte for byte.
func TestRendersEqualHelmTemplate(t *testing.T) {
	helm := referenceHelm(t)
	root := chartRoot(t)
	w := startWorker(t, "--root", root)
	cases := []struct {
		name, chart string
		render      Render
	}{
		{"subchart library chart tpl layered values CRDs capabilities", "app", Render{
			ReleaseName: "web", Namespace: "shop", Values: appValues, KubeVersion: "v1.31.2",
			APIVersions: []string{"example.com/v1", "policy/v1/PodDisruptionBudget"}, IncludeCRDs: true}},
		{"defaults tests skipped upgrade", "app", Render{
			ReleaseName: "web", Namespace: "default", KubeVersion: "1.30", SkipTests: true, IsUpgrade: true}},
		{"the same chart packed with its subchart disabled and no hooks", "app.tgz", Render{
			ReleaseName: "packed", Namespace: "shop", KubeVersion: "v1.33.4-gke.1245000", Values: []string{"sub: {enabled: false}"}, DisableHooks: true}},
		{"values set as --set sets them", "app", Render{
			ReleaseName: "set", Namespace: "shop", KubeVersion: "v1.32.0", Values: appValues,
			Set: []string{"replicas=5,image.tag=2.0", `extraLabels.tier=web\,api`, "extraLabels.empty=null",
				"sub.message=set", "global.list[1]=b", "global.list[0]=a"}}},
		{"required value given", "needs", Render{
			ReleaseName: "db", Namespace: "data", KubeVersion: "v1.34.0", Values: []string{"password: hunter22"}}},
	}
	// Every case names a Kubernetes version: without one Helm takes its default, which in a test
	// process (testing.Testing()) is v1.20, not the one the worker and helm have.
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want, ok := helmTemplate(t, helm, root, c.chart, c.render)
			if !ok {
				t.Fatalf("helm template failed: %s", want)
			}
			resp := render(w, root, c.chart, c.render)
			if resp.Error != nil || resp.Rendered == nil {
				t.Fatalf("render: %+v", resp.Error)
			}
			if got := templateText(resp.Rendered); got != want {
				t.Errorf("the render differs from helm template:\n--- worker\n%s\n--- helm\n%s", got, want)
			}
		})
	}
}

// The answer carries the hooks apart, NOTES.txt and what names the chart.
func TestARenderAnswersHooksNotesAndTheChart(t *testing.T) {
	root := chartRoot(t)
	w := startWorker(t, "--root", root)
	resp := render(w, root, "app", Render{ReleaseName: "web", Namespace: "shop", Values: appValues})
	if resp.Error != nil {
		t.Fatalf("render: %+v", resp.Error)
	}
	if !w.hello.Charts {
		t.Errorf("the chart worker does not say it renders charts: %+v", w.hello)
	}
	r := resp.Rendered
	if r.Chart.Name != "app" || r.Chart.Version != "1.2.3" || r.Chart.AppVersion != "4.5.6" ||
		!strings.HasPrefix(r.Chart.Digest, "sha256:") {
		t.Errorf("chart: %+v", r.Chart)
	}
	if r.Notes != "web-app is installed in shop.\nReplicas: 3\n" {
		t.Errorf("notes: %q", r.Notes)
	}
	var hooks []Hook
	for _, h := range r.Hooks {
		h.Manifest = ""
		hooks = append(hooks, h)
	}
	// in Helm's order: the install order of their kinds
	want := []Hook{
		{Path: "app/templates/hooks.yaml", Kind: "ConfigMap", Name: "web-app-post", Events: []string{"post-install"}, Weight: 3},
		{Path: "app/templates/tests/test-connection.yaml", Kind: "Pod", Name: "web-app-test", Events: []string{"test"}},
		{Path: "app/templates/hooks.yaml", Kind: "Job", Name: "web-app-migrate", Events: []string{"pre-install", "pre-upgrade"},
			Weight: -5, DeletePolicies: []string{"before-hook-creation", "hook-succeeded"}},
	}
	if !reflect.DeepEqual(hooks, want) {
		t.Errorf("hooks:\n%+v\nwant\n%+v", hooks, want)
	}
	if strings.Contains(r.Manifest, "helm.sh/hook") || strings.Contains(r.Manifest, "CustomResourceDefinition") {
		t.Errorf("hooks or CRDs in the manifest:\n%s", r.Manifest)
	}
	packed := render(w, root, "app.tgz", Render{ReleaseName: "web", Namespace: "shop"})
	if packed.Error != nil || !strings.HasPrefix(packed.Rendered.Chart.Digest, "sha256:") ||
		packed.Rendered.Chart.Digest == r.Chart.Digest {
		t.Errorf("packed chart: %+v", packed)
	}
}

// A template error names the file and line as Helm does; a schema failure names the value's
// path; neither quotes a value.
func TestRenderErrorsNameTheTemplateLineAndTheValuePath(t *testing.T) {
	root := chartRoot(t)
	w := startWorker(t, "--root", root)
	missing := Render{ReleaseName: "db", Namespace: "data"}
	resp := render(w, root, "needs", missing)
	if resp.Error == nil || resp.Error.Stage != StageRender ||
		!strings.Contains(resp.Error.Message, "needs/templates/secret.yaml:6") ||
		!strings.Contains(resp.Error.Message, "password is required") {
		t.Fatalf("required: %+v", resp.Error)
	}
	invalid := Render{ReleaseName: "web", Namespace: "shop", Values: []string{"image: {tag: S3cr3t-Value!}"}}
	resp = render(w, root, "app", invalid)
	if resp.Error == nil || resp.Error.Stage != StageRender || !strings.Contains(resp.Error.Message, "/image/tag") {
		t.Fatalf("schema: %+v", resp.Error)
	}
	if strings.Contains(resp.Error.Message, "S3cr3t-Value!") {
		t.Errorf("the message quotes a value: %s", resp.Error.Message)
	}
	if helm := referenceHelmOrEmpty(t); helm != "" {
		for chart, r := range map[string]Render{"needs": missing, "app": invalid} {
			text, ok := helmTemplate(t, helm, root, chart, r)
			got := render(w, root, chart, r).Error.Message
			if ok || !strings.Contains(strings.ReplaceAll(text, "S3cr3t-Value!", "(a value)"), got) {
				t.Errorf("helm says\n%s\nthe worker\n%s", text, got)
			}
		}
	}
}

func referenceHelmOrEmpty(t *testing.T) (helm string) {
	t.Run("reference", func(t *testing.T) { helm = referenceHelm(t) })
	return helm
}

// What a chart must not be is refused, with a message that says what.
func TestBadChartsAreRefused(t *testing.T) {
	root := chartRoot(t)
	app := filepath.Join(root, "app")
	writeFile(t, filepath.Join(root, "traversal.tgz"), packChart(t, app, []*tar.Header{
		{Name: "app/../../escape.yaml", Mode: 0o644, Size: 4, Typeflag: tar.TypeReg}}))
	writeFile(t, filepath.Join(root, "symlink.tgz"), packChart(t, app, []*tar.Header{
		{Name: "app/templates/passwd.yaml", Linkname: "/etc/passwd", Typeflag: tar.TypeSymlink}}))
	writeFile(t, filepath.Join(root, "hardlink.tgz"), packChart(t, app, []*tar.Header{
		{Name: "app/templates/passwd.yaml", Linkname: "app/Chart.yaml", Typeflag: tar.TypeLink}}))
	whole := packChart(t, app, nil)
	writeFile(t, filepath.Join(root, "truncated.tgz"), whole[:len(whole)/2])
	big, err := os.Create(filepath.Join(root, "big.tgz"))
	if err != nil {
		t.Fatal(err)
	}
	big.Truncate(maxChartArchive + 1)
	big.Close()
	if err := os.CopyFS(filepath.Join(root, "linked"), os.DirFS(app)); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(root, "linked/templates/passwd.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(root, "nodep"), os.DirFS(app)); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(root, "nodep/charts/sub"))
	w := startWorker(t, "--root", root)
	for chart, want := range map[string]string{
		"traversal.tgz": "leaves the chart's directory",
		"symlink.tgz":   "is a link",
		"hardlink.tgz":  "is a link",
		"truncated.tgz": "unexpected EOF",
		"big.tgz":       "larger than the maximum size",
		"linked":        "templates/passwd.yaml is a symbolic link",
		"nodep":         "missing in charts/ directory: sub",
		"missing":       "chart not found",
	} {
		resp := render(w, root, chart, Render{ReleaseName: "r", Namespace: "n"})
		if resp.Error == nil || resp.Error.Stage != StageChart || !strings.Contains(resp.Error.Message, want) {
			t.Errorf("%s: want %q, got %+v", chart, want, resp.Error)
		}
	}
}

// Archives nested in charts/ deeper than the worker allows (a chart whose dependency holds
// itself again, packed) are refused before Helm unpacks them.
func TestArchivesNestedTooDeepAreRefused(t *testing.T) {
	root := chartRoot(t)
	var inner []byte
	for depth := maxChartNesting + 2; depth >= 0; depth-- {
		name := "loop"
		files := map[string][]byte{"Chart.yaml": []byte("apiVersion: v2\nname: loop\nversion: 0.0.1\n" +
			"dependencies: [{name: loop, version: 0.0.1}]\n")}
		if inner != nil {
			files["charts/loop-0.0.1.tgz"] = inner
		}
		inner = packFiles(t, name, files)
	}
	writeFile(t, filepath.Join(root, "cycle.tgz"), inner)
	w := startWorker(t, "--root", root)
	resp := render(w, root, "cycle.tgz", Render{ReleaseName: "r", Namespace: "n"})
	if resp.Error == nil || resp.Error.Stage != StageChart || !strings.Contains(resp.Error.Message, "nest deeper than") {
		t.Fatalf("nested archives: %+v", resp.Error)
	}
}

func packFiles(t *testing.T, top string, files map[string][]byte) []byte {
	t.Helper()
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	tw := tar.NewWriter(zw)
	for name, data := range files {
		if err := tw.WriteHeader(&tar.Header{Name: top + "/" + name, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write(data)
	}
	tw.Close()
	zw.Close()
	return out.Bytes()
}

// A schema's pattern that backtracks exponentially elsewhere is matched in linear time (Go's
// regular expressions): the render fails at once, naming the value's path.
func TestAPathologicalSchemaPatternFailsQuickly(t *testing.T) {
	root := chartRoot(t)
	w := startWorker(t, "--root", root)
	start := time.Now()
	value := strings.Repeat("a", 100000) + "!"
	resp := render(w, root, "regex", Render{ReleaseName: "r", Namespace: "n", Values: []string{"name: " + value}})
	if resp.Error == nil || resp.Error.Stage != StageRender || !strings.Contains(resp.Error.Message, "/name") ||
		strings.Contains(resp.Error.Message, "aaaa") {
		t.Fatalf("pattern: %+v", resp.Error)
	}
	if elapsed := time.Since(start); elapsed > 10*time.Second {
		t.Errorf("the pattern took %s", elapsed)
	}
}

// A template that allocates without bound ends the worker at its memory limit, which it names.
func TestATemplatePastTheMemoryLimitEndsTheWorker(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the hard memory limit is Linux's")
	}
	root := chartRoot(t)
	w := startWorker(t, "--root", root, "--memory-limit", "268435456")
	body, _ := json.Marshal(Request{Root: root, Path: "grow", Render: &Render{ReleaseName: "r", Namespace: "n"}})
	if err := writeFrame(w.in, frame{id: 1, body: body}); err != nil {
		t.Fatal(err)
	}
	if _, err := readFrame(w.out); err == nil {
		t.Fatal("the render was answered within 256 MiB")
	}
	err := w.cmd.Wait()
	exit, ok := err.(*exec.ExitError)
	if !ok {
		t.Fatalf("the worker ended with %v", err)
	}
	switch stderr := w.stderr.String(); exit.ExitCode() {
	case exitMemory:
		if !strings.Contains(stderr, "out of memory: the build needed more than 256 MiB") {
			t.Errorf("stderr: %s", stderr)
		}
	case 2:
		// On a busy machine the watch may not run before an allocation reaches the kernel's limit
		// behind it; the runtime then ends the process saying so, which the JVM also reads as the
		// memory limit.
		if !strings.Contains(stderr, "runtime: out of memory") {
			t.Errorf("exit status 2 without the runtime's out of memory: %s", stderr)
		}
	default:
		t.Fatalf("the worker ended with %v", err)
	}
}

// A template that loops keeps its worker busy until the caller's deadline ends the process (the
// JVM's time limit); no answer is ever taken for the render's, and a new worker renders.
func TestATemplateThatLoopsIsEndedByTheDeadline(t *testing.T) {
	root := chartRoot(t)
	w := startWorker(t, "--root", root)
	body, _ := json.Marshal(Request{Root: root, Path: "loop", Render: &Render{ReleaseName: "r", Namespace: "n"}})
	if err := writeFrame(w.in, frame{id: 1, body: body}); err != nil {
		t.Fatal(err)
	}
	answered := make(chan error, 1)
	go func() {
		_, err := readFrame(w.out)
		answered <- err
	}()
	select {
	case err := <-answered:
		t.Fatalf("the looping render was answered (%v); the worker said %s", err, w.stderr.String())
	case <-time.After(2 * time.Second):
	}
	w.cmd.Process.Kill()
	if err := <-answered; err == nil {
		t.Fatal("a killed worker's frame was read as an answer")
	}
	next := startWorker(t, "--root", root)
	if resp := render(next, root, "app", Render{ReleaseName: "r", Namespace: "n"}); resp.Error != nil {
		t.Fatalf("render after the loop: %+v", resp.Error)
	}
}

// An archive of more entries than a chart may hold, a file that decompresses past Helm's bound
// for one file, and files that together decompress past its bound for a chart are refused, each
// naming the bound, before anything of them is held.
func TestArchiveBombsAreRefused(t *testing.T) {
	root := chartRoot(t)
	chartYAML := []byte("apiVersion: v2\nname: bomb\nversion: 0.0.1\n")
	many := map[string][]byte{"Chart.yaml": chartYAML}
	for i := 0; i <= maxChartFiles; i++ {
		many[fmt.Sprintf("files/%d.txt", i)] = nil
	}
	writeFile(t, filepath.Join(root, "many.tgz"), packFiles(t, "bomb", many))
	zeros := make([]byte, archive.MaxDecompressedFileSize+1)
	writeFile(t, filepath.Join(root, "file.tgz"), packFiles(t, "bomb", map[string][]byte{
		"Chart.yaml": chartYAML, "files/zeros.bin": zeros}))
	total := map[string][]byte{"Chart.yaml": chartYAML}
	part := zeros[:archive.MaxDecompressedFileSize-1]
	for i := int64(0); i <= archive.MaxDecompressedChartSize/int64(len(part)); i++ {
		total[fmt.Sprintf("files/%d.bin", i)] = part
	}
	writeFile(t, filepath.Join(root, "total.tgz"), packFiles(t, "bomb", total))
	w := startWorker(t, "--root", root)
	for chart, want := range map[string]string{
		"many.tgz":  fmt.Sprintf("more than %d files", maxChartFiles),
		"file.tgz":  fmt.Sprintf("larger than the maximum file size %d", archive.MaxDecompressedFileSize),
		"total.tgz": fmt.Sprintf("decompressed chart is larger than the maximum size %d", archive.MaxDecompressedChartSize),
	} {
		resp := render(w, root, chart, Render{ReleaseName: "r", Namespace: "n"})
		if resp.Error == nil || resp.Error.Stage != StageChart || !strings.Contains(resp.Error.Message, want) {
			t.Errorf("%s: want %q, got %+v", chart, want, resp.Error)
		}
	}
}

// A chart from an OCI artifact takes the artifact's digest as its version's build metadata, and
// must be the version of the tag it was pulled by, as Flux's helm-controller asks.
func TestAnOciChartsVersionIsPinnedToItsTagAndDigest(t *testing.T) {
	root := chartRoot(t)
	w := startWorker(t, "--root", root)
	pinned := render(w, root, "app", Render{ReleaseName: "web", Namespace: "shop", Values: appValues,
		VersionTag: "1.2.3", VersionBuild: "0123456789ab"})
	if pinned.Error != nil || pinned.Rendered.Chart.Version != "1.2.3+0123456789ab" {
		t.Errorf("pinned by tag and digest: %+v", pinned)
	}
	byDigest := render(w, root, "app", Render{ReleaseName: "web", Namespace: "shop", Values: appValues,
		VersionBuild: "ba9876543210"})
	if byDigest.Error != nil || byDigest.Rendered.Chart.Version != "1.2.3+ba9876543210" {
		t.Errorf("pinned by digest: %+v", byDigest)
	}
	for tag, want := range map[string]string{
		"latest": "artifact revision latest is not a semantic version",
		"1.2.4":  "artifact revision 1.2.4 does not match chart version 1.2.3",
	} {
		resp := render(w, root, "app", Render{ReleaseName: "web", Namespace: "shop", Values: appValues,
			VersionTag: tag, VersionBuild: "0123456789ab"})
		if resp.Error == nil || resp.Error.Stage != StageVersion || !strings.HasPrefix(resp.Error.Message, want) {
			t.Errorf("tag %s: %+v", tag, resp)
		}
	}
}
