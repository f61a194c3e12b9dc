package dev.capstan.source.git.transport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ProtocolException;
import java.net.URL;
import java.security.KeyManagementException;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import javax.net.ssl.HostnameVerifier;
import javax.net.ssl.KeyManager;
import javax.net.ssl.TrustManager;
import org.eclipse.jgit.transport.http.HttpConnection;

/** An HTTP connection that hands every call to another; subclasses change the calls they must. */
abstract class ForwardingConnection implements HttpConnection {

  private final HttpConnection c;

  ForwardingConnection(HttpConnection c) {
    this.c = c;
  }

  @Override
  public void setRequestProperty(String key, String value) {
    c.setRequestProperty(key, value);
  }

  @Override
  public int getResponseCode() throws IOException {
    return c.getResponseCode();
  }

  @Override
  public URL getURL() {
    return c.getURL();
  }

  @Override
  public String getResponseMessage() throws IOException {
    return c.getResponseMessage();
  }

  @Override
  public Map<String, List<String>> getHeaderFields() {
    return c.getHeaderFields();
  }

  @Override
  public void setRequestMethod(String method) throws ProtocolException {
    c.setRequestMethod(method);
  }

  @Override
  public void setUseCaches(boolean usecaches) {
    c.setUseCaches(usecaches);
  }

  @Override
  public void setConnectTimeout(int timeout) {
    c.setConnectTimeout(timeout);
  }

  @Override
  public void setReadTimeout(int timeout) {
    c.setReadTimeout(timeout);
  }

  @Override
  public String getContentType() {
    return c.getContentType();
  }

  @Override
  public InputStream getInputStream() throws IOException {
    return c.getInputStream();
  }

  @Override
  public String getHeaderField(String name) {
    return c.getHeaderField(name);
  }

  @Override
  public List<String> getHeaderFields(String name) {
    return c.getHeaderFields(name);
  }

  @Override
  public int getContentLength() {
    return c.getContentLength();
  }

  @Override
  public void setInstanceFollowRedirects(boolean followRedirects) {
    c.setInstanceFollowRedirects(followRedirects);
  }

  @Override
  public void setDoOutput(boolean dooutput) {
    c.setDoOutput(dooutput);
  }

  @Override
  public void setFixedLengthStreamingMode(int contentLength) {
    c.setFixedLengthStreamingMode(contentLength);
  }

  @Override
  public OutputStream getOutputStream() throws IOException {
    return c.getOutputStream();
  }

  @Override
  public void setChunkedStreamingMode(int chunklen) {
    c.setChunkedStreamingMode(chunklen);
  }

  @Override
  public String getRequestMethod() {
    return c.getRequestMethod();
  }

  @Override
  public boolean usingProxy() {
    return c.usingProxy();
  }

  @Override
  public void connect() throws IOException {
    c.connect();
  }

  @Override
  public void configure(KeyManager[] km, TrustManager[] tm, SecureRandom random)
      throws NoSuchAlgorithmException, KeyManagementException {
    c.configure(km, tm, random);
  }

  @Override
  public void setHostnameVerifier(HostnameVerifier hostnameverifier)
      throws NoSuchAlgorithmException, KeyManagementException {
    c.setHostnameVerifier(hostnameverifier);
  }
}
