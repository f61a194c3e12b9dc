package dev.capstan.engine.monitor;

import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.kustomization.HealthTracking.ServiceAccount;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether a service account may {@code get} a kind in a namespace (or at cluster scope). The
 * monitor reads every object through the engine's shared informers, so before it reports an
 * object's health for a Kustomization that acts as a service account it asks this; otherwise a
 * tenant could learn through its Healthy condition what its service account may not read. Answers
 * are remembered for a bounded time, so a change of the account's rights shows within that time,
 * and a busy inventory does not ask the API server on every event. Thread-safe.
 */
final class ReadAccess {
  private static final Logger LOG = LoggerFactory.getLogger(ReadAccess.class);

  /**
   * May {@code account} of {@code cluster} ("": the engine's own; else a remote cluster's id) get
   * {@code resource} of {@code group}; {@code namespace} "" is cluster scope.
   */
  record Question(
      String cluster, NamespacedName account, String group, String resource, String namespace) {}

  enum Verdict {
    ALLOWED,
    DENIED,
    UNCHECKED
  }

  /** The answer to a question; {@code message} says, for a user, why it is not allowed. */
  record Decision(Verdict verdict, String message) {
    boolean allowed() {
      return verdict == Verdict.ALLOWED;
    }
  }

  /** Asks the API server. Throws when it cannot tell (the request failed). */
  @FunctionalInterface
  interface Decider {
    boolean mayGet(Question question, Supplier<KubernetesClient> client);
  }

  private record Remembered(boolean allowed, Instant expires) {}

  private final Decider decider;
  private final Clock clock;
  private final Duration lifetime;
  private final Map<Question, Remembered> answers = new ConcurrentHashMap<>();

  ReadAccess(Decider decider, Clock clock, Duration lifetime) {
    this.decider = decider;
    this.clock = clock;
    this.lifetime = lifetime;
  }

  /**
   * Whether {@code account} may get {@code resource} of {@code group} in {@code namespace} ("":
   * cluster scope).
   */
  Decision mayGet(
      String cluster, ServiceAccount account, String group, String resource, String namespace) {
    Question question = new Question(cluster, account.name(), group, resource, namespace);
    Instant now = clock.instant();
    Remembered remembered = answers.get(question);
    if (remembered == null || !now.isBefore(remembered.expires())) {
      try {
        remembered = new Remembered(decider.mayGet(question, account.client()), now.plus(lifetime));
      } catch (RuntimeException e) {
        // Not remembered: the next evaluation asks again.
        LOG.debug("cannot check read access for {}", question, e);
        return new Decision(
            Verdict.UNCHECKED,
            "cannot check whether "
                + account.username()
                + " may get "
                + describe(question)
                + ": "
                + e.getMessage());
      }
      forgetExpired(now);
      answers.put(question, remembered);
    }
    return remembered.allowed()
        ? new Decision(Verdict.ALLOWED, "")
        : new Decision(Verdict.DENIED, account.username() + " may not get " + describe(question));
  }

  /** Answers remembered now (for tests). */
  int remembered() {
    return answers.size();
  }

  // Only on a new answer: answers of accounts and namespaces no longer tracked do not pile up.
  private void forgetExpired(Instant now) {
    answers.values().removeIf(r -> !now.isBefore(r.expires()));
  }

  /** {@code deployments.apps in namespace team-b}, {@code namespaces at cluster scope}. */
  private static String describe(Question q) {
    String resource = q.group().isEmpty() ? q.resource() : q.resource() + "." + q.group();
    return resource
        + (q.namespace().isEmpty() ? " at cluster scope" : " in namespace " + q.namespace());
  }
}
