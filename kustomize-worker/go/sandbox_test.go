package main

import (
	"encoding/binary"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// TestTheCorpusBuildsTheSameInsideTheSandbox: every case of the applier's build corpus, built by a
// confined worker, gives what the same build gives in this (unconfined) process, failures
// included: the system call filter allows every call a build makes.
func TestTheCorpusBuildsTheSameInsideTheSandbox(t *testing.T) {
	root, err := filepath.Abs(corpus)
	if err == nil {
		root, err = filepath.EvalSymlinks(root)
	}
	if err != nil {
		t.Fatal(err)
	}
	cases, err := os.ReadDir(root)
	if err != nil {
		t.Fatalf("the corpus is missing: %v", err)
	}
	w := startWorker(t, "--root", root)
	if runtime.GOOS == "linux" && !w.hello.Seccomp {
		t.Fatalf("the system call filter is not in force: %+v", w.hello)
	}
	for _, c := range cases {
		if !c.IsDir() {
			continue
		}
		dir := filepath.Join(root, c.Name())
		for _, output := range []string{"objects", "yaml"} {
			req := Request{Root: dir, Path: ".", Output: output}
			inside := w.call(req)
			b := newBuilder(dir)
			here := b.build(req)
			if !sameResponse(t, inside, here) {
				t.Errorf("%s (%s): the worker answered\n%+v\nbut the build here gives\n%+v", c.Name(), output, inside.Error, here.Error)
			}
		}
	}
}

var address = regexp.MustCompile(`0x[0-9a-f]{6,}`)

func sameResponse(t *testing.T, a, b Response) bool {
	x, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	y, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	// kustomize prints some values' addresses, which differ between processes
	x, y = address.ReplaceAll(x, []byte("0x?")), address.ReplaceAll(y, []byte("0x?"))
	var p, q interface{}
	_ = json.Unmarshal(x, &p)
	_ = json.Unmarshal(y, &q)
	return reflect.DeepEqual(p, q)
}

// A worker on a kernel without Landlock (as --test-skip-landlock makes it) still loads its system
// call filter and says so; with or without Landlock, sockets and io_uring are refused.
func TestWithOrWithoutLandlockTheFilterRefusesSocketsAndIoUring(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the system call filter is Linux's")
	}
	root := tree(t, map[string]string{"app/cm.yaml": "kind: ConfigMap"})
	for _, without := range []bool{false, true} {
		args := []string{"--root", root, "--test-probes"}
		if without {
			args = append(args, "--test-skip-landlock")
		}
		w := startWorker(t, args...)
		if !w.hello.Seccomp {
			t.Fatalf("the system call filter is not in force: %+v", w.hello)
		}
		if without {
			if w.hello.Confined || w.hello.Landlock != 0 ||
				!strings.Contains(w.hello.Problem, "Landlock was not entered") ||
				!strings.Contains(w.hello.Problem, "system call filter is in force") {
				t.Errorf("the hello does not say what was done: %+v", w.hello)
			}
		}
		for _, call := range []string{"socket", "io_uring_setup"} {
			got := w.call(Request{Probe: &Probe{Syscall: call}})
			if got.Probe == nil || got.Probe.Error != "operation not permitted" {
				t.Errorf("%s (without Landlock: %v) gave %+v", call, without, got.Probe)
			}
		}
	}
}

// TestAWorkerMakingAnotherArchitecturesSystemCallIsKilled: a 32-bit call through int 0x80 is
// checked against no table of this architecture's; the filter kills the process.
func TestAWorkerMakingAnotherArchitecturesSystemCallIsKilled(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("32-bit system calls from a 64-bit process are amd64's")
	}
	check := exec.Command(os.Args[0])
	check.Env = append(os.Environ(), i386Check+"=1")
	if out, err := check.Output(); err != nil || string(out) != "ok" {
		t.Skipf("this kernel runs no 32-bit system calls (%v)", err)
	}
	root := tree(t, map[string]string{"app/cm.yaml": "kind: ConfigMap"})
	for _, extra := range [][]string{nil, {"--test-skip-landlock"}} {
		w := startWorker(t, append([]string{"--root", root, "--test-probes"}, extra...)...)
		body, _ := json.Marshal(Request{Probe: &Probe{Syscall: "getpid-i386"}})
		if err := writeFrame(w.in, frame{id: 1, body: body}); err != nil {
			t.Fatal(err)
		}
		if answer, err := readFrame(w.out); err == nil {
			t.Fatalf("the worker answered %s", answer.body)
		}
		err := w.cmd.Wait()
		status, ok := w.cmd.ProcessState.Sys().(syscall.WaitStatus)
		if !ok || !status.Signaled() || status.Signal() != syscall.SIGSYS {
			t.Errorf("the worker (%v) ended with %v, not killed by the filter (SIGSYS)", extra, err)
		}
	}
}

// i386Check makes the test binary try a 32-bit getpid and print "ok" if the kernel answered it.
const i386Check = "CAPSTAN_TEST_I386_GETPID"

// TestWhatTheProcessPrintsCannotForgeAnAnswer: frames have a descriptor of their own; standard
// output is standard error.
func TestWhatTheProcessPrintsCannotForgeAnAnswer(t *testing.T) {
	root := tree(t, map[string]string{"app/cm.yaml": "kind: ConfigMap"})
	w := startWorker(t, "--root", root, "--test-probes")
	forged := `{"objects":[{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"forged"}}]}`
	var header [frameHeader]byte
	binary.BigEndian.PutUint32(header[0:4], uint32(len(forged)))
	binary.BigEndian.PutUint64(header[4:12], w.next+1) // the id the next request will have
	got := w.call(Request{Probe: &Probe{Stdout: string(header[:]) + forged}})
	if got.Probe == nil || got.Probe.Error != "" || len(got.Objects) != 0 {
		t.Fatalf("the answer is not the probe's: %+v", got)
	}
	if again := w.call(Request{Probe: &Probe{Open: filepath.Join(root, "app/cm.yaml")}}); again.Probe == nil {
		t.Fatalf("the next answer is not the probe's: %+v", again)
	}
	for i := 0; i < 100 && !strings.Contains(w.stderr.String(), forged); i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.Contains(w.stderr.String(), forged) {
		t.Errorf("what was printed did not reach standard error: %q", w.stderr.String())
	}
}

// TestRemoteFilesAreNeverFetched: a URL where kustomize loads a file, in any field, fails the build
// with a message that says so and does not quote the URL, and nothing is requested, whether the
// worker is confined or not (without Landlock a loopback address could be reached).
func TestRemoteFilesAreNeverFetched(t *testing.T) {
	var requests atomic.Int32
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		io.WriteString(w, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: fetched}\n")
	}))
	defer server.Close()
	url := server.URL + "/metadata"
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"
	cases := map[string]map[string]string{
		"files":          {"kustomization.yaml": "configMapGenerator:\n- name: leak\n  files: [" + url + "]\n"},
		"named file":     {"kustomization.yaml": "secretGenerator:\n- name: leak\n  files: [key=" + url + "]\n"},
		"envs":           {"kustomization.yaml": "configMapGenerator:\n- name: leak\n  envs: [" + url + "]\n"},
		"resources":      {"kustomization.yaml": "resources: [" + url + "]\n"},
		"patches":        {"kustomization.yaml": "resources: [cm.yaml]\npatches:\n- path: " + url + "\n", "cm.yaml": cm},
		"strategic":      {"kustomization.yaml": "resources: [cm.yaml]\npatchesStrategicMerge: [" + url + "]\n", "cm.yaml": cm},
		"configurations": {"kustomization.yaml": "resources: [cm.yaml]\nconfigurations: [" + url + "]\n", "cm.yaml": cm},
		"crds":           {"kustomization.yaml": "resources: [cm.yaml]\ncrds: [" + url + "]\n", "cm.yaml": cm},
		"openapi":        {"kustomization.yaml": "resources: [cm.yaml]\nopenapi:\n  path: " + url + "\n", "cm.yaml": cm},
		"replacements":   {"kustomization.yaml": "resources: [cm.yaml]\nreplacements:\n- path: " + url + "\n", "cm.yaml": cm},
	}
	// the field the message names, where kustomize's message says which it was
	fields := map[string]string{"files": "a generator's files", "named file": "a generator's files",
		"envs": "a generator's envs", "resources": "resources", "patches": "patches",
		"strategic": "patchesStrategicMerge", "crds": "crds", "replacements": "replacements"}
	files := map[string]string{}
	for name, c := range cases {
		for path, content := range c {
			files[strings.ReplaceAll(name, " ", "-")+"/"+path] = content
		}
	}
	root := tree(t, files)
	modes := [][]string{{"--root", root}}
	if runtime.GOOS == "linux" {
		modes = append(modes, []string{"--root", root, "--test-skip-landlock"})
	}
	for _, mode := range modes {
		w := startWorker(t, mode...)
		for name := range cases {
			got := w.call(Request{Root: root, Path: strings.ReplaceAll(name, " ", "-"), Output: "objects"})
			if got.Error == nil {
				t.Errorf("%s (%v): the build succeeded: %s", name, mode, got.Objects)
				continue
			}
			if !strings.Contains(got.Error.Message, "not supported: a URL in "+fields[name]) ||
				strings.Contains(got.Error.Message, "127.0.0.1") {
				t.Errorf("%s (%v): %q", name, mode, got.Error.Message)
			}
		}
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("the server was asked %d times", n)
	}
}
