package dev.capstan.source.git.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import javax.net.ssl.SSLHandshakeException;
import org.eclipse.jgit.api.errors.TransportException;
import org.eclipse.jgit.errors.NoRemoteRepositoryException;
import org.eclipse.jgit.transport.URIish;
import org.junit.jupiter.api.Test;

class FailureClassifierTest {

  /** As JGit answered a truncated pack in the fault bench: its own field names are no message. */
  @Test
  void aDefectInsideTheGitClientIsNamedByItsKindOnly() {
    var npe =
        new NullPointerException(
            "Cannot invoke \"org.eclipse.jgit.lib.Repository.newObjectInserter()\" because"
                + " \"this.local\" is null");
    assertEquals(
        "the Git client failed unexpectedly (NullPointerException)",
        FailureClassifier.detailOf(npe));
    var wrapped = new TransportException(npe.getMessage(), npe);
    assertEquals(
        "the Git client failed unexpectedly (NullPointerException)",
        FailureClassifier.detailOf(wrapped));
    var told = new TransportException("http://127.0.0.1:1/x: Premature EOF");
    assertEquals("http://127.0.0.1:1/x: Premature EOF", FailureClassifier.detailOf(told));
  }

  @Test
  void authenticationFailuresAreNotRetried() {
    var e = new TransportException("http://127.0.0.1:40111/git/app: not authorized");
    assertEquals(FailureReason.AUTHENTICATION_FAILED, FailureClassifier.reasonOf(e));
    assertFalse(FailureClassifier.isTransient(e));
  }

  @Test
  void portNumbersAreNotStatusCodes() {
    var e =
        new TransportException(
            "http://127.0.0.1:40150/git/app: connection failed",
            new ConnectException("Connection refused"));
    assertEquals(FailureReason.GIT_OPERATION_FAILED, FailureClassifier.reasonOf(e));
    assertTrue(FailureClassifier.isTransient(e));
    var notFound =
        new TransportException(
            "http://127.0.0.1:50312/x: not found",
            new NoRemoteRepositoryException(new URIish().setPath("/x"), "not found"));
    assertFalse(FailureClassifier.isTransient(notFound));
  }

  @Test
  void timeoutsAndGatewayErrors() {
    var timeout = new TransportException("read", new SocketTimeoutException("Read timed out"));
    assertEquals(FailureReason.TIMEOUT, FailureClassifier.reasonOf(timeout));
    assertTrue(FailureClassifier.isTransient(timeout));
    assertTrue(
        FailureClassifier.isTransient(
            new TransportException("https://host/repo: 503 Service Unavailable")));
    assertFalse(
        FailureClassifier.isTransient(
            new SourceException(FailureReason.REF_NOT_FOUND, "branch 'x' does not exist")));
  }

  @Test
  void aServerRefusingTheClientCertificateIsAnAuthenticationFailure() {
    var refused =
        new TransportException(
            "https://127.0.0.1:40111/git/app: SSL problems: Received fatal alert: bad_certificate",
            new SSLHandshakeException("Received fatal alert: bad_certificate"));
    assertEquals(FailureReason.AUTHENTICATION_FAILED, FailureClassifier.reasonOf(refused));
    assertTrue(FailureClassifier.clientCertificateRefused(refused));
    assertFalse(FailureClassifier.isTransient(refused));

    var untrustedServer =
        new TransportException(
            "https://127.0.0.1:40111/git/app: SSL problems: PKIX path building failed",
            new SSLHandshakeException("PKIX path building failed"));
    assertFalse(FailureClassifier.clientCertificateRefused(untrustedServer));
    assertEquals(FailureReason.GIT_OPERATION_FAILED, FailureClassifier.reasonOf(untrustedServer));
  }
}
