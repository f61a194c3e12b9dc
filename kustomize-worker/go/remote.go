package main

import (
	"errors"
	"net/http"
	"strings"
)

// init makes every HTTP request of the process fail before it is sent, before main runs (and in
// the tests' processes, which build in process too). kustomize's
// file loader fetches any file named by an http:// or https:// URL (a resource, a generator's
// files or envs, a patch, a configuration, an OpenAPI schema) with a client on
// http.DefaultTransport; Capstan, like a GitOps source, builds only what the artifact holds. This
// holds whatever the sandbox could do: on a kernel without Landlock, the system call filter alone
// would not stop a connection made through a socket opened before it.
func init() {
	http.DefaultTransport = noRemoteLoads{}
	http.DefaultClient = &http.Client{Transport: noRemoteLoads{}}
}

// errRemoteLoad is what every HTTP request of the worker gets.
var errRemoteLoad = errors.New(remoteLoadRefused)

const remoteLoadRefused = "capstan builds only the artifact's files: remote files are refused"

type noRemoteLoads struct{}

func (noRemoteLoads) RoundTrip(*http.Request) (*http.Response, error) {
	return nil, errRemoteLoad
}

// remoteLoadMessage is the build's message when kustomize tried to fetch a URL: kustomize's own
// message quotes the URL and the transport's error around it, so it is replaced by one that names
// what kustomize was loading, when its message says, and not the URL.
func remoteLoadMessage(message string) (string, bool) {
	if !strings.Contains(message, remoteLoadRefused) {
		return "", false
	}
	where := "a field of the kustomization (configurations, openapi, ...)"
	for _, known := range []struct{ marker, where string }{
		{"env source files", "a generator's envs"},
		{"file sources", "a generator's files"},
		{"PatchStrategicMergeTransformer", "patchesStrategicMerge"},
		{"PatchTransformer", "patches"},
		{"ReplacementTransformer", "replacements"},
		{"loading CRDs", "crds"},
	} {
		if strings.Contains(message, known.marker) {
			where = known.where
			break
		}
	}
	return "remote files are not supported: a URL in " + where + " is never fetched; the build" +
		" reads only the artifact (put the file in the source)", true
}
