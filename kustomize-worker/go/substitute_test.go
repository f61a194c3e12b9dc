package main

import (
	"strings"
	"testing"
)

func TestStrictSubstitutionRefusesAVariableWithoutValueOrDefault(t *testing.T) {
	vars := map[string]string{"SET": "one"}
	_, err := substituteText([]byte("data:\n  a: ${SET}\n  b: ${MISSING}\n"), vars, true)
	if err == nil {
		t.Fatal("a variable without a value passed in strict mode")
	}
	if !strings.Contains(err.Error(), `"MISSING"`) || strings.Contains(err.Error(), "one") {
		t.Fatalf("the error should name the variable and no value: %v", err)
	}
}

func TestStrictSubstitutionTakesDefaultsAndValues(t *testing.T) {
	vars := map[string]string{"SET": "one"}
	out, err := substituteText([]byte("data:\n  a: ${SET}\n  b: ${MISSING:=two}\n  c: ${GONE:-three}\n"), vars, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(out); got != `{"data":{"a":"one","b":"two","c":"three"}}` {
		t.Fatalf("got %s", got)
	}
}

func TestLenientSubstitutionMakesAVariableWithoutValueEmpty(t *testing.T) {
	out, err := substituteText([]byte("data:\n  a: x${MISSING}y\n"), map[string]string{"SET": "one"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(out); got != `{"data":{"a":"xy"}}` {
		t.Fatalf("got %s", got)
	}
}
