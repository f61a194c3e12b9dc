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
      String m = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
      if (m.contains("not authorized")
          || m.contains("authentication is required")
          || m.contains("auth fail")
          || m.contains("authentication failed")
          || m.contains("no more authentication methods")
          || m.contains("cannot log in")
          || m.contains("403 forbidden")) {
        return FailureReason.AUTHENTICATION_FAILED;
      }
      if (m.contains("timed out") || m.contains("timeout")) {
        return FailureReason.TIMEOUT;
      }
    }
    return FailureReason.GIT_OPERATION_FAILED;
  }

  /** Whether the remote refused this side's TLS client certificate, or asked for one in vain. */
  public static boolean clientCertificateRefused(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      String m = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
      if (t instanceof SSLException && CLIENT_CERTIFICATE_ALERTS.stream().anyMatch(m::contains)) {
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
      String m = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
      if (m.contains("error writing to server")
          || m.contains("connection reset")
          || m.contains("broken pipe")
          || m.contains("unexpected end of file")
          || m.contains("remote host terminated the handshake")) {
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
      String m = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
      if (m.contains("connection refused")
          || m.contains("connection reset")
          || m.contains("timed out")
          || m.contains("502 bad gateway")
          || m.contains("503 service unavailable")
          || m.contains("504 gateway time")
          || m.contains("unknown host")
          || m.contains("closed by")
          || m.contains("premature eof")
          || m.contains("broken pipe")) {
        return true;
      }
    }
    return reasonOf(error) == FailureReason.GIT_OPERATION_FAILED && isNetworkLike(error);
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

  /** The innermost useful message of the chain, for the status. */
  public static String detailOf(Throwable error) {
    String detail = error.getMessage();
    for (Throwable t = error.getCause(); t != null; t = t.getCause()) {
      if (t.getMessage() != null
          && !t.getMessage().isBlank()
          && (detail == null || !detail.contains(t.getMessage()))) {
        detail = detail == null ? t.getMessage() : detail + ": " + t.getMessage();
      }
    }
    return detail == null ? error.getClass().getSimpleName() : detail;
  }
}
