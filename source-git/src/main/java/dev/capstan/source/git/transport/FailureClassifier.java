package dev.capstan.source.git.transport;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import javax.net.ssl.SSLException;
import org.eclipse.jgit.errors.NoRemoteRepositoryException;

/** Maps exceptions from JGit and the network onto a {@link FailureReason}. */
public final class FailureClassifier {

  private FailureClassifier() {}

  /**
   * TLS alerts by which a server refuses the client's certificate, or the lack of one: received
   * from the remote, so they never stand for this side's doubts about the server's certificate.
   */
  private static final List<String> CLIENT_CERTIFICATE_ALERTS =
      List.of(
          "received fatal alert: bad_certificate",
          "received fatal alert: certificate_required",
          "received fatal alert: certificate_unknown",
          "received fatal alert: certificate_expired",
          "received fatal alert: certificate_revoked",
          "received fatal alert: unsupported_certificate",
          "received fatal alert: unknown_ca",
          "received fatal alert: access_denied");

  /** What JGit, JSch and servers say when they refuse this side's credentials. */
  private static final List<String> CREDENTIALS_REFUSED =
      List.of(
          "not authorized",
          "authentication is required",
          "auth fail",
          "authentication failed",
          "no more authentication methods",
          "cannot log in",
          "403 forbidden");

  /** What a client sees when the connection breaks off under its request. */
  private static final List<String> CONNECTION_DROPPED =
      List.of(
          "error writing to server",
          "connection reset",
          "broken pipe",
          "unexpected end of file",
          "remote host terminated the handshake");

  /** Network trouble, and gateways saying so, that may be gone at the next attempt. */
  private static final List<String> TRANSIENT_TROUBLE =
      List.of(
          "connection refused",
          "connection reset",
          "timed out",
          "502 bad gateway",
          "503 service unavailable",
          "504 gateway time",
          "unknown host",
          "closed by",
          "premature eof",
          "broken pipe");

  public static FailureReason reasonOf(Throwable error) {
    if (clientCertificateRefused(error)) {
      return FailureReason.AUTHENTICATION_FAILED;
    }
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof SourceException s) {
        return s.reason();
      }
      if (t instanceof SocketTimeoutException) {
        return FailureReason.TIMEOUT;
      }
      if (t instanceof NoRemoteRepositoryException) {
        return FailureReason.GIT_OPERATION_FAILED;
      }
      if (mentions(t, CREDENTIALS_REFUSED)) {
        return FailureReason.AUTHENTICATION_FAILED;
      }
      if (mentions(t, List.of("timed out", "timeout"))) {
        return FailureReason.TIMEOUT;
      }
    }
    return FailureReason.GIT_OPERATION_FAILED;
  }

  /** Whether the remote refused this side's TLS client certificate, or asked for one in vain. */
  public static boolean clientCertificateRefused(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof SSLException && mentions(t, CLIENT_CERTIFICATE_ALERTS)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the connection broke off under the request: what a client sees of a TLS 1.3 server that
   * refused its certificate when the request went out before the server's alert came in.
   */
  public static boolean connectionDropped(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (mentions(t, CONNECTION_DROPPED)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether another attempt may succeed: network trouble yes; refused credentials, missing refs and
   * bad input no.
   */
  static boolean isTransient(Throwable error) {
    if (error instanceof SourceException) {
      return false;
    }
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof ConnectException
          || t instanceof NoRouteToHostException
          || t instanceof UnknownHostException
          || t instanceof InterruptedIOException
          || t instanceof SocketException
          || t instanceof EOFException) {
        return true;
      }
      if (t instanceof NoRemoteRepositoryException) {
        return false;
      }
      if (mentions(t, TRANSIENT_TROUBLE)) {
        return true;
      }
    }
    return reasonOf(error) == FailureReason.GIT_OPERATION_FAILED && isNetworkLike(error);
  }

  /** Whether {@code t}'s own message contains one of {@code phrases}, ignoring case. */
  private static boolean mentions(Throwable t, List<String> phrases) {
    String m = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
    return phrases.stream().anyMatch(m::contains);
  }

  private static boolean isNetworkLike(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof IOException
          && !(t instanceof NoRemoteRepositoryException)
          && t.getClass().getName().startsWith("java.net")) {
        return true;
      }
    }
    return false;
  }

  /**
   * The messages of the chain, for the status. A defect inside the Git client (a null pointer, as
   * JGit has answered a pack cut short with) is named by its kind only: its message names the
   * client's own fields and methods, which tell a user nothing.
   */
  public static String detailOf(Throwable error) {
    String detail = messageOf(error);
    for (Throwable t = error.getCause(); t != null; t = t.getCause()) {
      String message = messageOf(t);
      if (message != null && !message.isBlank() && (detail == null || !detail.contains(message))) {
        detail = detail == null ? message : detail + ": " + message;
      }
    }
    return detail == null ? error.getClass().getSimpleName() : detail;
  }

  private static String messageOf(Throwable t) {
    if (t instanceof NullPointerException
        || t instanceof ClassCastException
        || t instanceof IndexOutOfBoundsException) {
      return "the Git client failed unexpectedly (" + t.getClass().getSimpleName() + ")";
    }
    String message = t.getMessage();
    // JGit wraps such a defect in an exception of its own that repeats the defect's message
    Throwable cause = t.getCause();
    if (message != null && cause != null && message.equals(cause.getMessage())) {
      return messageOf(cause);
    }
    return message;
  }
}
