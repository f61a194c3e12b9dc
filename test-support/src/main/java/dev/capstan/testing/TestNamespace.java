package dev.capstan.testing;

/** A namespace created for one test class and deleted after it. */
public record TestNamespace(String name) {}
