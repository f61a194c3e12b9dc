package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"sigs.k8s.io/kustomize/api/konfig"
	kustypes "sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

// kustomize's message for a generator literal that is not key=value quotes the literal and every
// other literal of the generator ("literal sources [user=admin S3CRET pass=x]: invalid literal
// source S3CRET, expected key=value"): literals are the values of a Secret, written in the
// kustomization itself. The message is cut from the first of these to the last of the second.
const (
	literalsStart = "literal sources ["
	literalsEnd   = ", expected key=value"
	literalBad    = "]: invalid literal source "
)

// An env line that is not UTF-8: kustomize prints its bytes as numbers and again as text.
var invalidUTF8Line = regexp.MustCompile(`line \[[0-9 ]*\] has invalid utf8 bytes : .*`)

// maxKustomizationsSearched bounds the walk that looks for the generator a message is about.
const maxKustomizationsSearched = 1000

// hideLiterals replaces, in a message, kustomize's quotation of a generator's literals with what
// is wrong and, when find names it, which generator it is. find is given the quoted text (the
// literals joined by spaces, then literalBad and the bad literal); nil names none.
func hideLiterals(message string, find func(quoted string) (string, bool)) string {
	message = invalidUTF8Line.ReplaceAllString(message, "a line has invalid UTF-8 bytes (the line is not shown)")
	start := strings.Index(message, literalsStart)
	end := strings.LastIndex(message, literalsEnd)
	if start < 0 || end < start {
		return message
	}
	quoted := message[start+len(literalsStart) : end]
	what := "a literal of a generator is not key=value (literals are not shown)"
	if find != nil {
		if found, ok := find(quoted); ok {
			what = found
		}
	}
	return message[:start] + what + message[end+len(literalsEnd):]
}

// findLiteralGenerator looks through the kustomizations a build of dir reads (the directory's own,
// then those of its local resources and components, as kustomize reads them from fs) for the
// generator whose literals a message quotes, and says which it is and what is wrong, never a
// literal.
func findLiteralGenerator(fs filesys.FileSystem, dir, quoted string) (string, bool) {
	visited := map[string]bool{}
	var search func(dir string) (string, bool)
	search = func(dir string) (string, bool) {
		if visited[dir] || len(visited) >= maxKustomizationsSearched || !fs.IsDir(dir) {
			return "", false
		}
		visited[dir] = true
		kus, file, ok := readKustomization(fs, dir)
		if !ok {
			return "", false
		}
		if found, ok := literalGenerator(kus, file, quoted); ok {
			return found, true
		}
		for _, ref := range append(append([]string{}, kus.Resources...), kus.Components...) {
			if isLocalRelativePath(ref) {
				if found, ok := search(filepath.Join(dir, ref)); ok {
					return found, true
				}
			}
		}
		return "", false
	}
	return search(dir)
}

func readKustomization(fs filesys.FileSystem, dir string) (kustypes.Kustomization, string, bool) {
	var kus kustypes.Kustomization
	for _, name := range konfig.RecognizedKustomizationFileNames() {
		file := filepath.Join(dir, name)
		if !fs.Exists(file) || fs.IsDir(file) {
			continue
		}
		data, err := fs.ReadFile(file)
		if err != nil || yaml.Unmarshal(data, &kus) != nil {
			return kus, "", false
		}
		return kus, file, true
	}
	return kus, "", false
}

// literalGenerator is the generator of kus whose literals, as kustomize quotes them, are quoted.
func literalGenerator(kus kustypes.Kustomization, file, quoted string) (string, bool) {
	type generator struct {
		kind, name string
		literals   []string
	}
	var generators []generator
	for _, g := range kus.SecretGenerator {
		generators = append(generators, generator{"secretGenerator", g.Name, g.LiteralSources})
	}
	for _, g := range kus.ConfigMapGenerator {
		generators = append(generators, generator{"configMapGenerator", g.Name, g.LiteralSources})
	}
	for _, g := range generators {
		for _, literal := range g.literals {
			problem := literalProblem(literal)
			if problem == "" {
				continue
			}
			// The first literal kustomize cannot split is the one its message names.
			if quoted == strings.Join(g.literals, " ")+literalBad+literal {
				return fmt.Sprintf("%s '%s' in %s: %s (literals are not shown)",
					g.kind, g.name, file, problem), true
			}
			break
		}
	}
	return "", false
}

// literalProblem says why kustomize cannot split a literal into key and value, "" when it can.
func literalProblem(literal string) string {
	switch i := strings.Index(literal, "="); {
	case i < 0:
		return "a literal has no '=' between its key and its value"
	case i == 0:
		return "a literal has no key before its '='"
	}
	return ""
}
