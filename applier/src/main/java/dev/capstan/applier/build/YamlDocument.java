package dev.capstan.applier.build;

/** One document of a YAML stream and where it starts. {@code content} is null for an empty document. */
record YamlDocument(Object content, Origin origin) {}
