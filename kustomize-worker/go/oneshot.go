//go:build helm

// `capstan build chart` in one process: `capstan-chart-worker template ARGS...` takes the
// command's own arguments, renders the chart as the command's JVM path has a chart worker render
// it (the same request, the same sandbox, the same limits) and prints what the command prints:
// the render on standard output, or `capstan build chart: STAGE: MESSAGE` on standard error with
// the command's exit status. bin/capstan runs it when the host's worker has the recorded digest,
// and the JVM otherwise, or when this mode answers exitFallback: arguments it does not take
// (anything the command's parser would read otherwise than it does, or refuse).
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"sigs.k8s.io/kustomize/kyaml/openapi"
)

// The command's one-shot limits (BuildLimits.oneShot): the JVM's deadline and memory of a render.
const (
	oneShotTimeout = 2 * time.Minute
	oneShotMemory  = 1 << 30
)

// The command's exit statuses (CliException): refused input, and any other failure.
const (
	exitBadInput = 2
	exitFailed   = 1
)

// oneShot runs `capstan build chart` with args (the command's, after `build chart`).
func oneShot(args []string) int {
	command, ok := parseChartCommand(args)
	if !ok {
		return exitFallback
	}
	request, code := command.request()
	if code != 0 {
		return code
	}
	os.Clearenv() // as the JVM starts a worker: nothing a library might look up is left
	if err := os.Chdir(string(filepath.Separator)); err != nil {
		return commandFailed(string(StageRequest), err.Error(), exitFailed)
	}
	b := &builder{root: request.Root, defaultSchema: openapi.GetSchemaVersion()}
	// Confined where the kernel can, and rendered all the same where it cannot, as the command's
	// sandbox (BuildSandbox.forUser) allows for the user's own files.
	enterSandbox(request.Root, oneShotMemory, true)
	memoryExceeded = func(limit int64) {
		os.Exit(commandFailed("limit", fmt.Sprintf(
			"the chart's render needed more than %d MiB of memory and was stopped", limit>>20), exitFailed))
	}
	time.AfterFunc(oneShotTimeout, func() {
		os.Exit(commandFailed("limit", fmt.Sprintf(
			"the chart's render did not finish within %ds and was stopped", int(oneShotTimeout.Seconds())),
			exitFailed))
	})
	stop := memory.during()
	response := b.render(request)
	stop()
	if response.Error != nil {
		return commandFailed(string(response.Error.Stage), response.Error.Message,
			exitCodeOf(response.Error.Stage))
	}
	if _, err := os.Stdout.WriteString(oneShotText(response.Rendered)); err != nil {
		return exitFailed
	}
	return 0
}

// request is the render request the command's JVM path sends for these arguments, or the exit
// status of a refusal printed as the command prints it: a missing chart, a values file that
// cannot be read or is not UTF-8, a chart directory whose real path cannot be had.
func (c chartCommand) request() (Request, int) {
	path, err := filepath.Abs(c.chart)
	if err != nil {
		return Request{}, commandFailed("", "no chart at "+javaPath(c.chart), exitBadInput)
	}
	info, err := os.Stat(path)
	if err != nil {
		return Request{}, commandFailed("", "no chart at "+javaPath(c.chart), exitBadInput)
	}
	// The worker reads the chart and nothing beside it: the directory itself, or the archive's.
	root, relative := path, "."
	if !info.IsDir() {
		root, relative = filepath.Dir(path), filepath.Base(path)
	}
	documents := make([]string, 0, len(c.values))
	for _, file := range c.values {
		data, err := os.ReadFile(file)
		if err != nil {
			return Request{}, commandFailed("", "cannot read the values file "+javaPath(file), exitBadInput)
		}
		if !utf8.Valid(data) {
			return Request{}, commandFailed("",
				"the values file "+javaPath(file)+" is not UTF-8 text", exitBadInput)
		}
		documents = append(documents, string(data))
	}
	real, err := filepath.EvalSymlinks(root)
	if err == nil {
		real, err = filepath.Abs(real)
	}
	if err != nil {
		return Request{}, commandFailed(string(StageChart), "the chart's directory cannot be read",
			exitBadInput)
	}
	return Request{Root: real, Path: relative, Render: &Render{
		ReleaseName:          c.releaseName,
		Namespace:            c.namespace,
		Values:               documents,
		Set:                  c.set,
		KubeVersion:          c.kubeVersion,
		APIVersions:          c.apiVersions,
		IncludeCRDs:          c.includeCRDs,
		SkipTests:            c.skipTests,
		DisableHooks:         c.noHooks,
		IsUpgrade:            c.isUpgrade,
		SkipSchemaValidation: c.skipSchemaValidation,
		PostRenderStrategy:   "combined",
	}}, 0
}

// exitCodeOf is the command's exit status for a worker's failure: the chart's or the values'
// fault is refused input; anything else (a stage the JVM does not know) a failure.
func exitCodeOf(stage Stage) int {
	switch stage {
	case StageRequest, StageChart, StageValues, StageRender:
		return exitBadInput
	}
	return exitFailed
}

// commandFailed prints a failure as the command prints it and gives its exit status. stage is
// the worker's (the JVM's names: a stage it does not know is the worker's fault); none for the
// command's own refusals.
func commandFailed(stage, message string, code int) int {
	switch Stage(stage) {
	case "", StageRequest, StageChart, StageValues, StageRender, "limit":
	default:
		stage = "worker"
	}
	if stage != "" {
		message = stage + ": " + message
	}
	fmt.Fprintln(os.Stderr, "capstan build chart: "+jsonText(message))
	return code
}

// oneShotText is what the command prints for a render: templateText of the answer as the JVM
// reads it, every string having passed through JSON (an invalid UTF-8 byte is U+FFFD).
func oneShotText(r *Rendered) string {
	clean := *r
	clean.Manifest = jsonText(r.Manifest)
	clean.Hooks = make([]Hook, len(r.Hooks))
	for i, h := range r.Hooks {
		h.Path, h.Manifest = jsonText(h.Path), jsonText(h.Manifest)
		clean.Hooks[i] = h
	}
	return templateText(&clean)
}

// jsonText is text as encoding/json writes it and a JSON reader gives it back: each byte that is
// not part of valid UTF-8 replaced by U+FFFD.
func jsonText(text string) string {
	if utf8.ValidString(text) {
		return text
	}
	var out strings.Builder
	for len(text) > 0 {
		r, size := utf8.DecodeRuneInString(text)
		if r == utf8.RuneError && size == 1 {
			out.WriteRune(utf8.RuneError)
		} else {
			out.WriteString(text[:size])
		}
		text = text[size:]
	}
	return out.String()
}

// javaPath is a path as the command prints it (java.nio's Path of the argument): repeated
// slashes as one, no trailing slash.
func javaPath(path string) string {
	for strings.Contains(path, "//") {
		path = strings.ReplaceAll(path, "//", "/")
	}
	if len(path) > 1 {
		path = strings.TrimSuffix(path, "/")
	}
	return path
}
