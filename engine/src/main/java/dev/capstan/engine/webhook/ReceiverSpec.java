package dev.capstan.engine.webhook;

import java.util.List;

/** One configured receiver: served at {@code /hook/<name>}. */
record ReceiverSpec(
    String name,
    ReceiverType type,
    List<String> events,
    SecretLocation secret,
    List<ResourceSelector> resources) {

  ReceiverSpec {
    events = List.copyOf(events);
    resources = List.copyOf(resources);
  }

  /** Either a file (e.g. a mounted Secret) or a key of a Kubernetes Secret. */
  record SecretLocation(String file, String secretNamespace, String secretName, String key) {}
}
