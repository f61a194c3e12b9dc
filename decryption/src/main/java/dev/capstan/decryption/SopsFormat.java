package dev.capstan.decryption;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/** The file formats SOPS writes, chosen by file name as SOPS and Flux choose them. */
public enum SopsFormat {
  YAML,
  JSON,
  DOTENV,
  INI,
  /** Any other file: a JSON envelope whose {@code data} holds the whole file. */
  BINARY;

  /**
   * The format of a file name: .yaml/.yml, .json (and .dockerconfigjson), .env, .ini, else binary.
   */
  public static SopsFormat forPath(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    if (lower.endsWith(".yaml") || lower.endsWith(".yml")) {
      return YAML;
    }
    if (lower.endsWith(".json") || lower.endsWith(".dockerconfigjson")) {
      return JSON;
    }
    if (lower.endsWith(".env")) {
      return DOTENV;
    }
    if (lower.endsWith(".ini")) {
      return INI;
    }
    return BINARY;
  }

  /** The bytes SOPS always writes into a document of this format (its MAC entry). */
  String marker() {
    return switch (this) {
      case YAML -> "mac: ENC[";
      case JSON, BINARY -> "\"mac\": \"ENC[";
      case DOTENV -> "sops_mac=ENC[";
      case INI -> "[sops]";
    };
  }

  /** Whether {@code content} looks SOPS-encrypted in this format (the test Flux uses). */
  public boolean isEncrypted(byte[] content) {
    return new String(content, StandardCharsets.ISO_8859_1).contains(marker());
  }
}
