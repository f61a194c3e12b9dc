package dev.capstan.engine.e2e;

import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.Condition;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Starts an engine and a Git repository for one test class, in the class's own namespace. */
@ExtendWith(KubernetesCluster.class)
abstract class EngineTestBase {
  static EngineFixture engine;
  static GitFixture git;

  @BeforeAll
  static void startEngine(ClusterAccess cluster, TestNamespace namespace, @TempDir Path repo) {
    engine = EngineFixture.start(EngineFixture.client(cluster.kubeconfig()), namespace.name());
    git = GitFixture.create(repo);
  }

  @AfterAll
  static void stopEngine() {
    if (engine != null) {
      engine.close();
    }
    if (git != null) {
      git.close();
    }
  }

  static String ns() {
    return engine.namespace;
  }

  static boolean isTrue(Condition c) {
    return "True".equals(c.getStatus());
  }

  static boolean isFalse(Condition c) {
    return "False".equals(c.getStatus());
  }
}
