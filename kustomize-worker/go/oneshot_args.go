//go:build helm

package main

import "strings"

// chartCommand is what `capstan build chart` was asked (BuildChartCommand's options and their
// defaults).
type chartCommand struct {
	chart                string
	values               []string
	set                  []string
	releaseName          string
	namespace            string
	kubeVersion          string
	apiVersions          []string
	includeCRDs          bool
	skipTests            bool
	noHooks              bool
	isUpgrade            bool
	skipSchemaValidation bool
}

// parseChartCommand reads the command's arguments as its parser reads them, for the forms this
// mode takes: `--name VALUE` and `--name=VALUE` (and the short names -f, -n and -a with a
// separate value), each boolean flag alone, one PATH anywhere. It says false for anything else,
// which the JVM is left to read or refuse with its own words: help and version, an unknown
// option, an option given twice, a value that begins with '-' (or an empty path), an argument
// file (@FILE), `--`, no PATH or two, an API version list with an empty or quoted item.
func parseChartCommand(args []string) (chartCommand, bool) {
	c := chartCommand{releaseName: "release-name", namespace: "default"}
	seen := map[string]bool{}
	var paths []string
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if strings.HasPrefix(arg, "@") {
			return c, false
		}
		if !strings.HasPrefix(arg, "-") {
			paths = append(paths, arg)
			continue
		}
		name, value, attached := strings.Cut(arg, "=")
		option, known := chartOptions[name]
		if !known || (attached && (option.flag || !strings.HasPrefix(name, "--"))) {
			return c, false
		}
		if option.flag {
			if seen[option.key] {
				return c, false
			}
			seen[option.key] = true
			c.setFlag(option.key)
			continue
		}
		if !attached {
			if i+1 == len(args) {
				return c, false
			}
			i++
			value = args[i]
		}
		if strings.HasPrefix(value, "-") || strings.HasPrefix(value, "@") ||
			(option.path && value == "") || (!option.repeatable && seen[option.key]) {
			return c, false
		}
		seen[option.key] = true
		if !c.setValue(option.key, value) {
			return c, false
		}
	}
	if len(paths) != 1 || paths[0] == "" {
		return c, false
	}
	c.chart = paths[0]
	return c, true
}

type chartOption struct {
	key        string
	flag       bool // a boolean flag, without a value
	repeatable bool
	path       bool // its value is a path
}

var chartOptions = map[string]chartOption{
	"-f":                       {key: "values", repeatable: true, path: true},
	"--values":                 {key: "values", repeatable: true, path: true},
	"--set":                    {key: "set", repeatable: true},
	"--release-name":           {key: "release-name"},
	"-n":                       {key: "namespace"},
	"--namespace":              {key: "namespace"},
	"--kube-version":           {key: "kube-version"},
	"-a":                       {key: "api-versions", repeatable: true},
	"--api-versions":           {key: "api-versions", repeatable: true},
	"--include-crds":           {key: "include-crds", flag: true},
	"--skip-tests":             {key: "skip-tests", flag: true},
	"--no-hooks":               {key: "no-hooks", flag: true},
	"--is-upgrade":             {key: "is-upgrade", flag: true},
	"--skip-schema-validation": {key: "skip-schema-validation", flag: true},
}

func (c *chartCommand) setFlag(key string) {
	switch key {
	case "include-crds":
		c.includeCRDs = true
	case "skip-tests":
		c.skipTests = true
	case "no-hooks":
		c.noHooks = true
	case "is-upgrade":
		c.isUpgrade = true
	case "skip-schema-validation":
		c.skipSchemaValidation = true
	}
}

// setValue records an option's value; false for an API version list it does not take.
func (c *chartCommand) setValue(key, value string) bool {
	switch key {
	case "values":
		c.values = append(c.values, value)
	case "set":
		c.set = append(c.set, value)
	case "release-name":
		c.releaseName = value
	case "namespace":
		c.namespace = value
	case "kube-version":
		c.kubeVersion = value
	case "api-versions":
		// split at commas as the command splits them; an empty or quoted item is left to it
		if strings.ContainsAny(value, `"'`) {
			return false
		}
		for _, item := range strings.Split(value, ",") {
			if item == "" {
				return false
			}
			c.apiVersions = append(c.apiVersions, item)
		}
	}
	return true
}
