package dev.capstan.engine.kustomization;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.git.GitRef;
import org.junit.jupiter.api.Test;

class RevisionRefsTest {
  private static final String SHA = "0123456789abcdef0123456789abcdef01234567";

  @Test
  void aBranchRevisionIsFetchedOnItsBranch() {
    assertEquals(
        new GitRef("main", null, null, null, SHA),
        RevisionRefs.of(GitRef.branch("main"), "main@sha1:" + SHA));
    assertEquals(
        new GitRef("trunk", null, null, null, SHA),
        RevisionRefs.of(GitRef.defaultBranch(), "trunk@sha1:" + SHA),
        "the default branch, as recorded");
  }

  @Test
  void tagsSemverAndRefNamesLookInEveryBranchAndTag() {
    assertEquals(GitRef.commit(SHA), RevisionRefs.of(GitRef.tag("v1"), "v1@sha1:" + SHA));
    assertEquals(
        GitRef.commit(SHA), RevisionRefs.of(GitRef.semver(">=1.0.0"), "1.2.0@sha1:" + SHA));
    assertEquals(
        GitRef.commit(SHA),
        RevisionRefs.of(GitRef.name("refs/pull/1/head"), "refs/pull/1/head@sha1:" + SHA));
    assertEquals(GitRef.commit(SHA), RevisionRefs.of(GitRef.defaultBranch(), "sha1:" + SHA));
  }

  @Test
  void whatIsNotARevisionIsRefusedNamingIt() {
    for (String bad :
        new String[] {
          "",
          "main",
          "main@sha1:abc",
          "main@sha256:" + SHA,
          "sha1:" + SHA.toUpperCase(),
          "main@sha1:" + SHA + "\n"
        }) {
      var e =
          assertThrows(
              IllegalArgumentException.class,
              () -> RevisionRefs.of(GitRef.branch("main"), bad),
              bad);
      assertTrue(e.getMessage().contains("is not a Git revision"), e.getMessage());
    }
    assertThrows(
        IllegalArgumentException.class, () -> RevisionRefs.of(GitRef.branch("main"), null));
  }
}
