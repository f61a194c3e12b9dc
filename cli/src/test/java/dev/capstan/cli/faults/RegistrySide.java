package dev.capstan.cli.faults;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.OCIRepository;
import dev.capstan.cli.faults.FaultyProxy.Mode;
import dev.capstan.source.oci.ArtifactPusher;
import dev.capstan.source.oci.ArtifactPusher.Push;
import dev.capstan.source.oci.OciUrl;
import dev.capstan.testing.OciRegistry;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The fault bench's registry side: a real OCI registry ({@link OciRegistry}) that the engine
 * reaches through a {@link FaultyProxy} of its own, one artifact holding M Kustomizations'
 * directories ({@code o0} ... ) of four ConfigMaps each, pushed again (tag {@value #TAG}) on each
 * change as {@code capstan push artifact} pushes ({@link ArtifactPusher}), the OCIRepository and
 * those Kustomizations, and a model of what the latest artifact holds. A removed object's name is
 * never used again, as on the Git side. The artifact also holds a few KiB of random text outside
 * the Kustomizations' directories, so that its layer is longer than what a truncating proxy lets
 * through.
 */
public final class RegistrySide implements AutoCloseable {
  public static final String SOURCE = "registry";
  static final String TAG = "live";
  private static final String REPOSITORY = "faults/workload";
  private static final int PADDING_BYTES = 6 * 1024;

  private final KubernetesClient admin;
  private final String namespace;
  private final Path artifact;
  private final Random random;
  private final int count;
  private final OciRegistry registry;
  private final FaultyProxy proxy;
  private final ArtifactPusher pusher = new ArtifactPusher(Clock.systemUTC());
  private final Map<String, TreeMap<String, String>> model = new TreeMap<>();
  private final Map<String, Instant> removedAt = new ConcurrentHashMap<>();
  private int nextObject;
  private int pushes;
  private String revision;

  private RegistrySide(
      KubernetesClient admin,
      String namespace,
      Path dir,
      Random random,
      int count,
      OciRegistry registry,
      FaultyProxy proxy) {
    this.admin = admin;
    this.namespace = namespace;
    this.artifact = dir.resolve("artifact");
    this.random = random;
    this.count = count;
    this.registry = registry;
    this.proxy = proxy;
  }

  /**
   * Starts a registry with its storage under {@code dir} and its proxy, and pushes the first
   * artifact: {@code count} Kustomizations' directories.
   */
  public static RegistrySide start(
      KubernetesClient admin, String namespace, Path dir, int count, Random random)
      throws Exception {
    OciRegistry registry = OciRegistry.start(dir.resolve("registry"), OciRegistry.Options.plain());
    FaultyProxy proxy = null;
    try {
      proxy = FaultyProxy.start("127.0.0.1", Integer.parseInt(registry.host().split(":")[1]));
      RegistrySide side = new RegistrySide(admin, namespace, dir, random, count, registry, proxy);
      side.first();
      return side;
    } catch (Exception e) {
      if (proxy != null) {
        proxy.close();
      }
      registry.close();
      throw e;
    }
  }

  /** How many Kustomizations the registry side has for {@code gitKustomizations}: a tenth, >= 2. */
  public static int countFor(int gitKustomizations) {
    return Math.max(2, gitKustomizations / 10);
  }

  public static String name(int index) {
    return "o" + index;
  }

  private synchronized void first() throws IOException {
    String padding = Base64.getEncoder().encodeToString(randomBytes(PADDING_BYTES));
    write("padding.txt", padding + "\n");
    for (int i = 0; i < count; i++) {
      model.put(name(i), new TreeMap<>());
      for (int o = 0; o < FaultWorkload.OBJECTS; o++) {
        addObject(name(i));
      }
    }
    push();
  }

  private byte[] randomBytes(int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }

  public FaultyProxy proxy() {
    return proxy;
  }

  /** Creates the OCIRepository (through the proxy) and the Kustomizations, labelled for a shard. */
  void create(String shardLabel, String shard) {
    create(
        OCIRepository.class,
        """
        apiVersion: source.capstan.dev/v1
        kind: OCIRepository
        metadata: {name: %s, namespace: %s, labels: {%s: %s}}
        spec: {url: "oci://127.0.0.1:%d/%s", ref: {tag: %s}, interval: 10s, timeout: 8s}
        """
            .formatted(SOURCE, namespace, shardLabel, shard, proxy.port(), REPOSITORY, TAG));
    for (int i = 0; i < count; i++) {
      create(
          Kustomization.class,
          """
          apiVersion: kustomize.capstan.dev/v1
          kind: Kustomization
          metadata: {name: %s, namespace: %s, labels: {%s: %s}}
          spec:
            sourceRef: {kind: OCIRepository, name: %s}
            path: "./%s"
            targetNamespace: %s
            interval: 10m
            retryInterval: 20s
            timeout: 60s
            prune: true
          """
              .formatted(name(i), namespace, shardLabel, shard, SOURCE, name(i), namespace));
    }
  }

  private <T extends HasMetadata> void create(Class<T> type, String yaml) {
    T object =
        admin
            .resources(type)
            .load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)))
            .item();
    admin.resource(object).create();
  }

  /** The latest artifact's revision, as its Kustomizations report it. */
  public synchronized String revision() {
    return revision;
  }

  /** Per Kustomization of the registry side, the latest artifact's revision. */
  public synchronized Map<String, String> revisions() {
    Map<String, String> revisions = new TreeMap<>();
    model.keySet().forEach(name -> revisions.put(name, revision));
    return revisions;
  }

  /** Per Kustomization, its objects and their values in the latest artifact. */
  public synchronized Map<String, Map<String, String>> expected() {
    Map<String, Map<String, String>> copy = new TreeMap<>();
    model.forEach((name, objects) -> copy.put(name, Map.copyOf(objects)));
    return copy;
  }

  public Map<String, Instant> removedAt() {
    return Map.copyOf(removedAt);
  }

  /** One change to one Kustomization's directory (an object changed, added or removed), pushed. */
  public synchronized String pushChange() throws IOException {
    List<String> names = new ArrayList<>(model.keySet());
    String owner = names.get(random.nextInt(names.size()));
    TreeMap<String, String> objects = model.get(owner);
    int dice = random.nextInt(3);
    String what;
    if (dice == 1 || objects.size() <= 1) {
      what = "add " + addObject(owner);
    } else if (dice == 2) {
      String gone = new ArrayList<>(objects.keySet()).get(random.nextInt(objects.size()));
      // Noted before the push: any deletion the engine makes follows it.
      removedAt.putIfAbsent(gone, Instant.now());
      objects.remove(gone);
      Files.delete(artifact.resolve(owner).resolve(gone + ".yaml"));
      what = "remove " + gone;
    } else {
      String changed = new ArrayList<>(objects.keySet()).get(random.nextInt(objects.size()));
      writeObject(owner, changed, Long.toString(random.nextLong() & Long.MAX_VALUE, 36));
      what = "change " + changed;
    }
    push();
    return what;
  }

  private void push() throws IOException {
    pushes++;
    ArtifactPusher.Pushed pushed =
        pusher.push(
            new Push(
                OciUrl.parseTagged("oci://" + registry.host() + "/" + REPOSITORY + ":" + TAG),
                artifact,
                "https://faults.example.invalid/workload",
                "push-" + pushes,
                null,
                null,
                Map.of(),
                Optional.empty(),
                true,
                null,
                Instant.now().plusSeconds(30)));
    revision = TAG + "@" + pushed.digest();
  }

  private String addObject(String owner) throws IOException {
    String object = owner + "-o" + nextObject++;
    writeObject(owner, object, Long.toString(random.nextLong() & Long.MAX_VALUE, 36));
    return object;
  }

  private void writeObject(String owner, String object, String value) throws IOException {
    model.get(owner).put(object, value);
    write(
        owner + "/" + object + ".yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\ndata:\n  value: \"%s\"\n"
            .formatted(object, value));
  }

  private void write(String file, String text) throws IOException {
    Path path = artifact.resolve(file);
    Files.createDirectories(path.getParent());
    Files.writeString(path, text);
  }

  /**
   * Asks for a fetch now, as a push webhook would: a merge patch without a resourceVersion, so the
   * engine's status writes in between cannot make it conflict. Returns the request's value, which
   * the OCIRepository's status echoes once it has handled it.
   */
  public String requestFetch() {
    String requestedAt = Instant.now().toString();
    admin
        .resources(OCIRepository.class)
        .inNamespace(namespace)
        .withName(SOURCE)
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"metadata\":{\"annotations\":{\"reconcile.capstan.dev/requestedAt\":\""
                + requestedAt
                + "\"}}}");
    return requestedAt;
  }

  /**
   * The registry answering as {@code mode} for {@code duration}: a change is pushed (straight to
   * the registry, as a publisher would) and a fetch asked for at once, and the fetch must fail
   * clearly within the fault ({@link RegistryFailureCheck}).
   */
  void fault(Mode mode, Duration duration) throws Exception {
    long end = System.nanoTime() + duration.toNanos();
    proxy.set(mode);
    try {
      pushChange();
      String requestedAt = requestFetch();
      new RegistryFailureCheck(this, mode, revision(), requestedAt).await(duration);
      Thread.sleep(Math.max(0, (end - System.nanoTime()) / 1_000_000));
    } finally {
      proxy.set(Mode.PASS);
    }
  }

  /** The OCIRepository's Ready condition now, if it has one. */
  Optional<Condition> sourceReady() {
    OCIRepository source = source();
    if (source == null || source.getStatus() == null || source.getStatus().conditions() == null) {
      return Optional.empty();
    }
    return source.getStatus().conditions().stream()
        .filter(c -> "Ready".equals(c.getType()))
        .findFirst();
  }

  /** The last fetch request the OCIRepository handled, if any. */
  Optional<String> lastHandledRequest() {
    OCIRepository source = source();
    return source == null || source.getStatus() == null
        ? Optional.empty()
        : Optional.ofNullable(source.getStatus().lastHandledReconcileAt());
  }

  /** The revision of the OCIRepository's artifact now, if it has one. */
  Optional<String> artifactRevision() {
    OCIRepository source = source();
    return source == null || source.getStatus() == null || source.getStatus().artifact() == null
        ? Optional.empty()
        : Optional.ofNullable(source.getStatus().artifact().revision());
  }

  /** Each registry side Kustomization's last applied revision (null if none yet). */
  Map<String, String> appliedRevisions() {
    Map<String, String> applied = new TreeMap<>();
    for (String name : model.keySet()) {
      Kustomization k =
          admin.resources(Kustomization.class).inNamespace(namespace).withName(name).get();
      applied.put(
          name, k == null || k.getStatus() == null ? null : k.getStatus().lastAppliedRevision());
    }
    return applied;
  }

  private OCIRepository source() {
    return admin.resources(OCIRepository.class).inNamespace(namespace).withName(SOURCE).get();
  }

  @Override
  public void close() throws Exception {
    try {
      proxy.close();
    } finally {
      registry.close();
    }
  }
}
