package dev.capstan.engine.cli;

/**
 * Ends the JDK HTTP client's selector threads before the JVM exits. Such a thread waits for
 * network events in native code, and a JVM that exits waits up to 300 ms for threads in native
 * code to come back to Java; the JDK 17 client has no close() that would end them, so every
 * command that talked to the cluster would take a third of a second longer to exit. An
 * interrupt wakes the selector, and its loop ends when it sees the interrupt.
 */
final class HttpSelectorThreads {

  private HttpSelectorThreads() {}

  static void stop() {
    Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("HttpClient-") && t.getName().endsWith("-SelectorManager"))
        .forEach(HttpSelectorThreads::interruptAndJoin);
  }

  private static void interruptAndJoin(Thread selector) {
    selector.interrupt();
    try {
      selector.join(100);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
