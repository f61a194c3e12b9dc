package dev.capstan.health;

import dev.capstan.health.cel.BuiltinLibrary;
import dev.capstan.health.cel.HealthCheckExpr;
import java.util.ArrayList;
import java.util.List;

/**
 * Renders docs/health-library.md from the built-in library: one table row per entry with its
 * apiVersion, kind and the comment line written above the entry in the YAML resource, which says
 * what Current, InProgress and Failed mean for that kind.
 */
final class HealthLibraryDoc {
  private HealthLibraryDoc() {}

  /** The markdown page for a library given as its YAML text. */
  static String render(String yaml) {
    List<HealthCheckExpr> entries = BuiltinLibrary.fromYaml(yaml).entries();
    List<String> notes = entryComments(yaml);
    if (notes.size() != entries.size()) {
      throw new IllegalArgumentException(
          "every library entry needs one comment line above it: "
              + entries.size()
              + " entries, "
              + notes.size()
              + " commented");
    }
    StringBuilder page = new StringBuilder();
    page.append("# Built-in health checks\n\n")
        .append("<!-- Generated from health/src/main/resources")
        .append(BuiltinLibrary.RESOURCE)
        .append(" by HealthLibraryDocTest; regenerate with\n")
        .append(
            "     mvn -pl health test -Dtest=HealthLibraryDocTest -Dcapstan.updateDocs=true"
                + " -->\n\n")
        .append(
            "Capstan decides the health of these custom resources with CEL expressions in the\n")
        .append("`healthCheckExprs` schema, shipped in the `health` module. An object with\n")
        .append(
            "`metadata.deletionTimestamp` is Terminating; a `status.observedGeneration` that"
                + " differs\n")
        .append(
            "from `metadata.generation` is InProgress; an object whose `status` holds nothing"
                + " the\n")
        .append(
            "entry reads (no status yet, or none of the fields its expressions mention) is"
                + " InProgress,\n")
        .append(
            "waiting for the controller to report status, unless its `current` expression holds"
                + " all\n")
        .append("the same; an object without `spec` reads as one with an empty spec; otherwise\n")
        .append("the entry's `inProgress`, `failed`\n")
        .append(
            "and `current` expressions are tried in that order, the first true one wins, and"
                + " none\n")
        .append(
            "true means InProgress. A `healthCheckExprs` entry in a Kustomization for the same\n")
        .append(
            "group and kind replaces the built-in one; `capstan status --no-builtin` leaves the\n")
        .append(
            "library out. `group/*` matches every version of the group; an entry without a kind\n")
        .append("applies to every kind of its group that has no entry of its own.\n\n")
        .append(
            "A built-in entry's Current is held back when a sign every controller shares says\n")
        .append(
            "otherwise: a `Reconciling` or `Stalled` condition, a condition whose"
                + " `observedGeneration`\n")
        .append("is behind `metadata.generation`, the `Ready` condition `False` or `Unknown`, or\n")
        .append(
            "`status.phase`/`status.state` saying progress or failure; a user's entry is never"
                + " held\n")
        .append(
            "back. Kinds with no entry here and no kstatus rule get the generic layer"
                + " (conditions,\n")
        .append("condition generations, status vocabularies, then kstatus's default; see\n")
        .append("`docs/health-rules.md`).\n\n")
        .append(
            "Entries whose description ends with \"(source: …)\" were derived from the operator's"
                + " own\n")
        .append(
            "documentation of its status fields, named there, and are tested against healthy,\n")
        .append("progressing and failed objects written from it (the files under\n")
        .append(
            "`health/src/test/resources/library/`). \"The corpus\" in a description is the set\n")
        .append(
            "of real objects with expected outcomes that `BuiltinLibraryConformanceTest` checks\n")
        .append("the library against; where it and the source disagree, the corpus's verdict is\n")
        .append("kept and the description says so.\n\n")
        .append(
            "## Where Capstan differs from kstatus: a LoadBalancer Service without an address\n\n")
        .append(
            "kstatus calls a `type: LoadBalancer` Service Current as soon as it has a cluster"
                + " IP;\n")
        .append("Capstan follows the application-readiness proposal and keeps it InProgress\n")
        .append(
            "(`NoLoadBalancerAddress`) until `status.loadBalancer.ingress` lists an address,"
                + " because\n")
        .append(
            "a load balancer without an address serves nobody. Of kstatus's own cases this is"
                + " the\n")
        .append("one whose answer differs. To get kstatus's answer, add this entry to the\n")
        .append(
            "Kustomization's `spec.healthCheckExprs` (or to a `capstan status --exprs` file):\n\n")
        .append("```yaml\n")
        .append("- apiVersion: v1\n")
        .append("  kind: Service\n")
        .append(
            "  current: \"!has(spec.type) || spec.type != 'LoadBalancer' || (has(spec.clusterIP) &&"
                + " spec.clusterIP != '')\"\n")
        .append("```\n\n")
        .append("(`LoadBalancerOptInTest` checks that this entry gives kstatus's answer.)\n\n")
        .append("## The entries\n\n")
        .append(entries.size())
        .append(" entries.\n\n")
        .append("| apiVersion | kind | what Current, InProgress and Failed mean |\n")
        .append("|---|---|---|\n");
    for (int i = 0; i < entries.size(); i++) {
      HealthCheckExpr entry = entries.get(i);
      page.append("| `")
          .append(entry.apiVersion())
          .append("` | ")
          .append(entry.kind().isEmpty() ? "(every kind)" : entry.kind())
          .append(" | ")
          .append(cell(notes.get(i)))
          .append(" |\n");
    }
    return page.toString();
  }

  /** The comment line directly above each entry, in file order. */
  static List<String> entryComments(String yaml) {
    List<String> notes = new ArrayList<>();
    String previous = "";
    for (String line : yaml.split("\n", -1)) {
      if (line.startsWith("- ") && previous.startsWith("# ")) {
        notes.add(previous.substring(2).trim());
      }
      previous = line;
    }
    return notes;
  }

  private static String cell(String text) {
    return text.replace("|", "\\|");
  }
}
