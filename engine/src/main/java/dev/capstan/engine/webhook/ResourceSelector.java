package dev.capstan.engine.webhook;

import java.util.Map;

/**
 * The GitRepositories one receiver triggers: one by name, or all in a namespace matching labels.
 */
public record ResourceSelector(String namespace, String name, Map<String, String> matchLabels) {

  public ResourceSelector {
    matchLabels = matchLabels == null ? Map.of() : Map.copyOf(matchLabels);
  }

  @Override
  public String toString() {
    return "GitRepository " + namespace + "/" + (name != null ? name : "*" + matchLabels);
  }
}
