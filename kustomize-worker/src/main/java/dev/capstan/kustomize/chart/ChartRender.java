package dev.capstan.kustomize.chart;

import java.util.List;

/**
 * A chart rendered by Helm's own code, as {@code helm template} renders it.
 *
 * @param chart what was rendered
 * @param manifest Helm's release manifest: every document that is not a hook, each after a {@code
 *     ---} and a {@code # Source: chart/templates/file.yaml} line, in Helm's install order (with
 *     the CRDs first when asked for)
 * @param hooks the hooks, apart, in Helm's order (none with {@code disableHooks}; no test hooks
 *     with {@code skipTests})
 * @param notes the chart's {@code templates/NOTES.txt}, rendered (empty without one)
 */
public record ChartRender(Chart chart, String manifest, List<Hook> hooks, String notes) {

  public ChartRender {
    manifest = manifest == null ? "" : manifest;
    hooks = hooks == null ? List.of() : List.copyOf(hooks);
    notes = notes == null ? "" : notes;
  }

  /**
   * The chart rendered.
   *
   * @param digest SHA-256 of the archive, or of the directory's files as Helm loaded them
   */
  public record Chart(String name, String version, String appVersion, String digest) {}

  /**
   * One hook, with what Helm reads from its annotations.
   *
   * @param path its template, as in its {@code # Source:} line
   * @param events when it runs ({@code pre-install}, {@code test}, ...)
   * @param weight the order Helm runs hooks of one event in
   * @param deletePolicies {@code helm.sh/hook-delete-policy}
   * @param outputLogPolicies {@code helm.sh/hook-output-log-policy}
   * @param manifest the document
   */
  public record Hook(
      String path,
      String kind,
      String name,
      List<String> events,
      int weight,
      List<String> deletePolicies,
      List<String> outputLogPolicies,
      String manifest) {

    public Hook {
      events = events == null ? List.of() : List.copyOf(events);
      deletePolicies = deletePolicies == null ? List.of() : List.copyOf(deletePolicies);
      outputLogPolicies = outputLogPolicies == null ? List.of() : List.copyOf(outputLogPolicies);
    }
  }

  /**
   * What {@code helm template} prints for this render: the manifest, trimmed of white space as Go
   * trims it, then each hook after its {@code # Source:} line.
   */
  public String templateText() {
    StringBuilder text = new StringBuilder(manifest.length() + 64);
    text.append(GoSpace.trim(manifest)).append('\n');
    for (Hook hook : hooks) {
      text.append("---\n# Source: ")
          .append(hook.path())
          .append('\n')
          .append(hook.manifest())
          .append('\n');
    }
    return text.toString();
  }
}
