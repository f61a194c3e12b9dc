package dev.capstan.decryption;

import java.util.List;

/**
 * A SOPS document as read from its format: its branches (YAML documents, or the one object of the
 * other formats) without the metadata, and the metadata as a map.
 */
record Document(List<Object> branches, Object metadata) {}
