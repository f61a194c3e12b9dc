//go:build helm

package main

import (
	"fmt"

	"github.com/Masterminds/semver/v3"
	chart "helm.sh/helm/v4/pkg/chart/v2"
)

// pinVersion checks and sets the chart's version as Flux's helm-controller does for a chart from
// an OCI artifact: the tag it was pulled by must name the chart's version (a mutable tag such as
// "latest" names none), and the artifact's digest becomes the version's build metadata, so that a
// tag pushed again with other content makes a new release. Neither given: the version stays.
func pinVersion(meta *chart.Metadata, tag, build string) error {
	if tag == "" && build == "" {
		return nil
	}
	version, err := semver.NewVersion(meta.Version)
	if err != nil {
		return fmt.Errorf("chart version %s is not a semantic version", meta.Version)
	}
	if tag != "" {
		tagged, err := semver.NewVersion(tag)
		if err != nil {
			return fmt.Errorf("artifact revision %s is not a semantic version: an OCI chart is "+
				"pulled by the tag of its version, or by digest", tag)
		}
		if !tagged.Equal(version) {
			return fmt.Errorf("artifact revision %s does not match chart version %s", tag, meta.Version)
		}
	}
	if build != "" {
		pinned, err := version.SetMetadata(build)
		if err != nil {
			return fmt.Errorf("artifact digest %s cannot be a version's build metadata", build)
		}
		meta.Version = pinned.String()
	}
	return nil
}
