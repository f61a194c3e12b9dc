package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// The test binary acts as the worker when started with this variable: the tests below run the
// worker as the JVM does, as a process of its own.
const actAsWorker = "CAPSTAN_TEST_ACT_AS_WORKER"

func TestMain(m *testing.M) {
	if os.Getenv(i386Check) == "1" {
		if probeSyscall("getpid-i386") == nil {
			os.Stdout.WriteString("ok")
		}
		os.Exit(0)
	}
	if os.Getenv(actAsWorker) == "1" {
		os.Args = append([]string{os.Args[0]}, strings.Fields(os.Getenv(actAsWorker+"_ARGS"))...)
		main()
		return
	}
	os.Exit(m.Run())
}

type workerProcess struct {
	t      *testing.T
	cmd    *exec.Cmd
	in     *bufio.Writer
	out    *bufio.Reader
	stderr *lockedBuffer
	hello  Hello
	next   uint64
}

// lockedBuffer is a worker's standard error, written by exec's copying goroutine.
type lockedBuffer struct {
	mu   sync.Mutex
	text bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.text.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.text.String()
}

func startWorker(t *testing.T, args ...string) *workerProcess {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), actAsWorker+"=1", actAsWorker+"_ARGS="+strings.Join(args, " "))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w := &workerProcess{t: t, cmd: cmd, in: bufio.NewWriter(stdin), out: bufio.NewReader(stdout), stderr: stderr}
	t.Cleanup(func() {
		stdin.Close()
		cmd.Wait()
	})
	greeting, err := readFrame(w.out)
	if err != nil || greeting.id != 0 {
		t.Fatalf("no hello from the worker: %v", err)
	}
	if err := json.Unmarshal(greeting.body, &w.hello); err != nil {
		t.Fatal(err)
	}
	return w
}

func (w *workerProcess) call(req Request) Response {
	w.t.Helper()
	w.next++
	body, _ := json.Marshal(req)
	if err := writeFrame(w.in, frame{id: w.next, body: body}); err != nil {
		w.t.Fatal(err)
	}
	answer, err := readFrame(w.out)
	if err != nil {
		w.t.Fatalf("no answer: %v", err)
	}
	if answer.id != w.next {
		w.t.Fatalf("answer %d to request %d", answer.id, w.next)
	}
	var resp Response
	if err := json.Unmarshal(answer.body, &resp); err != nil {
		w.t.Fatal(err)
	}
	return resp
}

func TestTheWorkerBuildsOnlyBelowItsRoot(t *testing.T) {
	root := tree(t, map[string]string{"app/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n"})
	w := startWorker(t, "--root", root)
	resp := w.call(Request{Root: root, Path: "app", Output: "objects"})
	if resp.Error != nil || len(resp.Objects) != 1 {
		t.Fatalf("build: %+v", resp)
	}
	for _, other := range []string{filepath.Dir(root), "/", "relative"} {
		resp = w.call(Request{Root: other, Path: ".", Output: "objects"})
		if resp.Error == nil || resp.Error.Stage != StageRequest {
			t.Errorf("a build of %s was not refused: %+v", other, resp)
		}
	}
	if resp := w.call(Request{Probe: &Probe{Open: "/etc/hostname"}}); resp.Error == nil {
		t.Errorf("a worker started without --test-probes answered a probe: %+v", resp)
	}
}

// The kernel's confinement, proved from a thread that existed before the sandbox was entered.
func TestTheKernelRefusesFilesOutsideTheRootAndEveryConnection(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the kernel's confinement is Linux's")
	}
	outside := tree(t, map[string]string{"secret": "t0ps3cret"})
	root := tree(t, map[string]string{"app/cm.yaml": "kind: ConfigMap"})
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer listener.Close()
	go func() {
		for {
			c, err := listener.Accept()
			if err != nil {
				return
			}
			io.Copy(io.Discard, c)
		}
	}()
	w := startWorker(t, "--root", root, "--test-probes")
	if !w.hello.Confined || w.hello.Landlock < 1 || !w.hello.Seccomp {
		t.Fatalf("the worker is not confined: %+v", w.hello)
	}
	if got := w.call(Request{Probe: &Probe{Open: filepath.Join(root, "app/cm.yaml")}}); got.Probe == nil || got.Probe.Error != "" {
		t.Fatalf("a file below the root cannot be opened: %+v", got.Probe)
	}
	for _, path := range []string{filepath.Join(outside, "secret"), "/etc/hostname", "/proc/self/environ"} {
		got := w.call(Request{Probe: &Probe{Open: path}})
		if got.Probe == nil || !strings.HasSuffix(got.Probe.Error, "permission denied") {
			t.Errorf("opening %s gave %+v", path, got.Probe)
		}
	}
	got := w.call(Request{Probe: &Probe{Connect: listener.Addr().String()}})
	if got.Probe == nil || !strings.HasSuffix(got.Probe.Error, "operation not permitted") {
		t.Errorf("connecting to %s gave %+v", listener.Addr(), got.Probe)
	}
}

func TestAWorkerPastItsMemoryEnds(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the hard memory limit is Linux's")
	}
	root := tree(t, map[string]string{
		"big/kustomization.yaml": "configMapGenerator: [{name: big, files: [big.txt]}]\n",
		"big/big.txt":            strings.Repeat("x", 64<<20),
	})
	w := startWorker(t, "--root", root, "--memory-limit", "67108864")
	body, _ := json.Marshal(Request{Root: root, Path: "big", Output: "objects"})
	if err := writeFrame(w.in, frame{id: 1, body: body}); err != nil {
		t.Fatal(err)
	}
	if _, err := readFrame(w.out); err == nil {
		t.Fatal("the build was answered within 64 MiB")
	}
	if err := w.cmd.Wait(); err == nil {
		t.Fatal("the worker ended without an error status")
	}
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
