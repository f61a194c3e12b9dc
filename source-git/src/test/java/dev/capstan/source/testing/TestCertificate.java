package dev.capstan.source.testing;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;

/**
 * A self-signed certificate for {@code 127.0.0.1}, made with the JDK's keytool: a key store for a
 * test server and a trust store holding only the certificate. {@link #trustedByDefault} makes it
 * what new default TLS contexts of this JVM trust, for as long as it is open.
 */
public record TestCertificate(Path keyStore, Path trustStore, String password) {

  public static TestCertificate create(Path dir) throws Exception {
    Files.createDirectories(dir);
    Path keyStore = dir.resolve("server.p12");
    String password = "test-only";
    Process keytool =
        new ProcessBuilder(
                List.of(
                    Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                    "-genkeypair",
                    "-alias",
                    "server",
                    "-keyalg",
                    "EC",
                    "-groupname",
                    "secp256r1",
                    "-dname",
                    "CN=127.0.0.1",
                    "-ext",
                    "SAN=ip:127.0.0.1",
                    "-validity",
                    "2",
                    "-storetype",
                    "PKCS12",
                    "-keystore",
                    keyStore.toString(),
                    "-storepass",
                    password,
                    "-keypass",
                    password))
            .redirectErrorStream(true)
            .start();
    String output = new String(keytool.getInputStream().readAllBytes());
    if (!keytool.waitFor(60, TimeUnit.SECONDS) || keytool.exitValue() != 0) {
      throw new IllegalStateException("keytool failed: " + output);
    }
    KeyStore keys = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(keyStore)) {
      keys.load(in, password.toCharArray());
    }
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("server", keys.getCertificate("server"));
    Path trustStore = dir.resolve("trust.p12");
    try (OutputStream out = Files.newOutputStream(trustStore)) {
      trust.store(out, password.toCharArray());
    }
    return new TestCertificate(keyStore, trustStore, password);
  }

  /**
   * Until closed, TLS contexts initialised with the JVM's defaults trust this certificate only, and
   * so do the default context and the default socket factory of https connections: those are made
   * once per JVM, by whichever test first opens an https connection, and would otherwise keep that
   * test's trust for every later one.
   */
  public AutoCloseable trustedByDefault() throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(trustStore)) {
      trust.load(in, password.toCharArray());
    }
    TrustManagerFactory factory =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, factory.getTrustManagers(), null);
    SSLContext previousContext = SSLContext.getDefault();
    SSLSocketFactory previousFactory = HttpsURLConnection.getDefaultSSLSocketFactory();
    SSLContext.setDefault(context);
    HttpsURLConnection.setDefaultSSLSocketFactory(context.getSocketFactory());
    AutoCloseable properties = trustStoreProperties();
    return () -> {
      properties.close();
      SSLContext.setDefault(previousContext);
      HttpsURLConnection.setDefaultSSLSocketFactory(previousFactory);
    };
  }

  private AutoCloseable trustStoreProperties() {
    String[] keys = {
      "javax.net.ssl.trustStore", "javax.net.ssl.trustStorePassword", "javax.net.ssl.trustStoreType"
    };
    String[] previous = new String[keys.length];
    for (int i = 0; i < keys.length; i++) {
      previous[i] = System.getProperty(keys[i]);
    }
    System.setProperty(keys[0], trustStore.toString());
    System.setProperty(keys[1], password);
    System.setProperty(keys[2], "PKCS12");
    return () -> {
      for (int i = 0; i < keys.length; i++) {
        if (previous[i] == null) {
          System.clearProperty(keys[i]);
        } else {
          System.setProperty(keys[i], previous[i]);
        }
      }
    };
  }
}
