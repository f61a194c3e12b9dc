package dev.capstan.source.git.transport;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import org.eclipse.jgit.transport.http.HttpConnection;

/**
 * A connection that drops every attempt to set the {@code Authorization} header and hands every
 * other call to the connection it wraps. It is a proxy of JGit's interface so that the one call it
 * changes is all it spells out; {@link JdkConnection} is the one place that lists every call.
 */
final class WithoutCredentials implements InvocationHandler {

  private final HttpConnection connection;

  private WithoutCredentials(HttpConnection connection) {
    this.connection = connection;
  }

  static HttpConnection around(HttpConnection connection) {
    return (HttpConnection)
        Proxy.newProxyInstance(
            HttpConnection.class.getClassLoader(),
            new Class<?>[] {HttpConnection.class},
            new WithoutCredentials(connection));
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    if (method.getName().equals("setRequestProperty")
        && "authorization".equalsIgnoreCase((String) args[0])) {
      return null;
    }
    try {
      return method.invoke(connection, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
