//go:build !helm

package main

// The kustomize worker, built without the helm tag: it links none of Helm (render.go and
// chart.go are the chart worker's), so every build worker stays small and starts quickly.

// workerName is the executable's name, for its messages.
const workerName = "capstan-kustomize-worker"

// rendersCharts says, in the hello, that this worker does not render charts.
const rendersCharts = false

// render refuses: charts are rendered by the chart worker, the same sources built with the
// helm tag.
func (b *builder) render(Request) Response {
	return failed(StageRequest, "this worker does not render charts: Helm charts are rendered by "+
		"capstan-chart-worker (the build worker built with the helm tag)")
}

// oneShot leaves `capstan build chart` to the command's JVM path: only the chart worker renders.
func oneShot([]string) int {
	return exitFallback
}
