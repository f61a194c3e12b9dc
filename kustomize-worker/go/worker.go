// The build worker: kustomize's build as Flux runs it, for the JVM, in a process of its own. The
// JVM keeps a few of these running; each answers one framed request at a time on stdin/stdout
// (frame.go). Before it reads its first request a worker confines itself (sandbox_linux.go): it
// may read the tree below --root and nothing else, and may not open a socket or start a program.
// It fetches nothing, whatever the sandbox (remote.go).
//
// Usage: capstan-kustomize-worker --root DIR [--memory-limit BYTES] [--test-skip-landlock]
// [--test-probes]
//
// Built with the helm tag, the same sources make capstan-chart-worker, which also renders Helm
// charts (render.go, chart.go) and answers the same builds; `capstan-chart-worker template
// ARGS...` is `capstan build chart ARGS...` in one process (oneshot.go).
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/openapi"
)

// Hello is the first frame a worker writes: what it could do to confine itself.
type Hello struct {
	// OS and Arch are the platform the worker was built for.
	OS   string `json:"os"`
	Arch string `json:"arch"`
	// Confined is true when the kernel confines the worker's files and network.
	Confined bool `json:"confined"`
	// Landlock is the kernel's Landlock ABI version (0: none).
	Landlock int `json:"landlock"`
	// Seccomp is true when the system call filter (an allow-list: no sockets, no programs) is in
	// force.
	Seccomp bool `json:"seccomp"`
	// MemoryLimit is the memory the worker may use, in bytes, when the kernel enforces it (0: it
	// does not); see limitMemory.
	MemoryLimit int64 `json:"memoryLimit"`
	// Charts is true for the chart worker (built with the helm tag), which renders Helm charts;
	// the kustomize worker answers a render request with an error.
	Charts bool `json:"charts"`
	// Problem says why the worker is not confined, when it is not, and what confines it all the
	// same.
	Problem string `json:"problem,omitempty"`
}

// exitFallback is the one-shot mode's exit status for arguments it leaves to the command's JVM
// path (oneshot.go); nothing has been printed then.
const exitFallback = 125

func main() {
	if len(os.Args) > 1 && os.Args[1] == "template" {
		os.Exit(oneShot(os.Args[2:]))
	}
	root := flag.String("root", "", "the directory whose tree builds may read (required)")
	memoryLimit := flag.Int64("memory-limit", 1<<30, "memory the worker may use, in bytes")
	probes := flag.Bool("test-probes", false, "answer probe requests (tests of the sandbox only)")
	skipLandlock := flag.Bool("test-skip-landlock", false,
		"do not enter Landlock, as on a kernel without it; the system call filter is loaded all the same (tests only)")
	flag.Parse()
	if *root == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: "+workerName+" --root DIR [--memory-limit BYTES]")
		os.Exit(2)
	}
	confinement, err := filepath.EvalSymlinks(*root)
	if err == nil {
		confinement, err = filepath.Abs(confinement)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, workerName+": --root:", err)
		os.Exit(2)
	}
	// The JVM starts the worker with an empty environment; nothing a library might look up there
	// (a PATH for a git program, a proxy) is left in any case.
	os.Clearenv()
	frames, err := framesOut()
	if err != nil {
		fmt.Fprintln(os.Stderr, workerName+": standard output:", err)
		os.Exit(2)
	}
	if err := os.Chdir(string(filepath.Separator)); err != nil {
		fmt.Fprintln(os.Stderr, workerName+":", err)
		os.Exit(2)
	}
	var prober *prober
	if *probes {
		prober = startProber() // before the sandbox: its thread must be confined all the same
	}
	// kustomize parses its OpenAPI schema (tens of MiB) when a build first needs one, as kustomize's
	// own command does: a worker whose builds need none stays small.
	b := &builder{root: confinement, defaultSchema: openapi.GetSchemaVersion()}
	hello := enterSandbox(confinement, *memoryLimit, !*skipLandlock)
	hello.OS, hello.Arch, hello.Charts = runtime.GOOS, runtime.GOARCH, rendersCharts
	serve(b, confinement, prober, hello, frames)
}

// serve answers requests until stdin closes.
func serve(b *builder, confinement string, prober *prober, hello Hello, frames *os.File) {
	in := bufio.NewReaderSize(os.Stdin, 64<<10)
	out := bufio.NewWriterSize(frames, 64<<10)
	greeting, _ := json.Marshal(hello)
	if writeFrame(out, frame{id: 0, body: greeting}) != nil {
		os.Exit(1)
	}
	for {
		request, err := readFrame(in)
		if err != nil {
			// stdin closed: the JVM is done with this worker (or gone); a broken frame cannot be
			// answered, since the stream has lost its place.
			os.Exit(0)
		}
		stop := memory.during()
		b.ask = asker(in, out, request.id)
		answer := handle(b, confinement, prober, request.body)
		b.ask = nil
		stop()
		if writeFrame(out, frame{id: request.id, body: answer}) != nil {
			os.Exit(1)
		}
		release()
	}
}

// asker gives the function a request asks its host a question with (a chart's lookup): a frame
// with the request's id, answered by one with the same id before the request goes on.
func asker(in *bufio.Reader, out *bufio.Writer, id uint64) func([]byte) ([]byte, error) {
	return func(question []byte) ([]byte, error) {
		if err := writeFrame(out, frame{id: id, body: question}); err != nil {
			return nil, err
		}
		answer, err := readFrame(in)
		if err != nil {
			return nil, err
		}
		if answer.id != id {
			return nil, fmt.Errorf("an answer for request %d came during request %d", answer.id, id)
		}
		return answer.body, nil
	}
}

func handle(b *builder, confinement string, prober *prober, data []byte) []byte {
	var req Request
	var resp Response
	switch err := json.Unmarshal(data, &req); {
	case err != nil:
		resp = failed(StageRequest, "invalid build request: "+err.Error())
	case req.Probe != nil && prober == nil:
		resp = failed(StageRequest, "probes are answered only by a worker started for tests")
	case req.Probe != nil:
		resp = Response{Probe: prober.try(*req.Probe)}
	case !within(confinement, req.Root):
		resp = failed(StageRequest, "the artifact is not below the directory this worker may read")
	case req.Render != nil:
		b.root = filepath.Clean(req.Root)
		resp = b.render(req)
	default:
		b.root = filepath.Clean(req.Root)
		resp = b.build(req)
	}
	out, err := json.Marshal(resp)
	if err != nil {
		out, _ = json.Marshal(failed(StageOutput, "cannot encode the build: "+err.Error()))
	}
	return out
}

func failed(stage Stage, message string) Response {
	return Response{Error: &Failure{stage, message}}
}

// within says whether dir is confinement or below it (both absolute and clean).
func within(confinement, dir string) bool {
	dir = filepath.Clean(dir)
	if !filepath.IsAbs(dir) {
		return false
	}
	return dir == confinement ||
		strings.HasPrefix(dir, strings.TrimSuffix(confinement, string(filepath.Separator))+string(filepath.Separator))
}

// releaseAbove is how much of the heap's memory may stay mapped between builds: a build that
// needed more gives it back, so that an idle worker holds little more than kustomize's schema.
const releaseAbove = 96 << 20

func release() {
	var stats runtime.MemStats
	runtime.ReadMemStats(&stats)
	if stats.HeapSys-stats.HeapReleased > releaseAbove {
		debug.FreeOSMemory()
	}
}
