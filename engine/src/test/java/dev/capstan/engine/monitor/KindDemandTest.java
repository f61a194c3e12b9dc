package dev.capstan.engine.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.kube.GroupKind;
import dev.capstan.kube.ObjectRef;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KindDemandTest {

  private static final GroupKind CONFIG_MAP = new GroupKind("", "ConfigMap");
  private static final GroupKind DEPLOYMENT = new GroupKind("apps", "Deployment");

  private static Map<GroupKind, String> kinds(ObjectRef... objects) {
    return KindDemand.kindsOf(List.of(objects));
  }

  @Test
  void kindsOfAnInventoryAreItsDistinctKindsAtTheirFirstVersion() {
    assertEquals(
        Map.of(CONFIG_MAP, "v1", DEPLOYMENT, "apps/v1"),
        kinds(
            ObjectRef.of("v1", "ConfigMap", "ns", "a"),
            ObjectRef.of("apps/v1", "Deployment", "ns", "web"),
            ObjectRef.of("apps/v1beta2", "Deployment", "ns", "old"),
            ObjectRef.of("v1", "ConfigMap", "ns", "b")));
  }

  @Test
  void aKindIsNeededUntilItsLastInventoryGoes() {
    KindDemand demand = new KindDemand();
    Map<GroupKind, String> web = kinds(ObjectRef.of("apps/v1", "Deployment", "ns", "w"));
    Map<GroupKind, String> both =
        kinds(
            ObjectRef.of("apps/v1beta2", "Deployment", "ns", "x"),
            ObjectRef.of("v1", "ConfigMap", "ns", "c"));
    demand.add("local", web);
    demand.add("local", both);
    assertEquals(Map.of(DEPLOYMENT, "apps/v1", CONFIG_MAP, "v1"), demand.needed("local"));

    demand.remove("local", both);
    assertEquals(Map.of(DEPLOYMENT, "apps/v1"), demand.needed("local"));

    demand.remove("local", web);
    assertEquals(Map.of(), demand.needed("local"));
    demand.remove("local", web); // removing what is not there changes nothing
    assertEquals(Map.of(), demand.needed("local"));
  }

  @Test
  void clustersAreCountedApart() {
    KindDemand demand = new KindDemand();
    Map<GroupKind, String> config = kinds(ObjectRef.of("v1", "ConfigMap", "ns", "c"));
    demand.add("local", config);
    demand.add("remote-a", config);
    demand.remove("local", config);
    assertEquals(Map.of(), demand.needed("local"));
    assertEquals(Map.of(CONFIG_MAP, "v1"), demand.needed("remote-a"));
  }
}
