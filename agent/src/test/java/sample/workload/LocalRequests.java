package sample.workload;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** What the sample services do as their own clients: a GET on loopback, and waiting for a file. */
final class LocalRequests {
  private LocalRequests() {}

  /** The body of {@code path} on the local server at {@code port}. */
  static String get(int port, String path) throws IOException {
    HttpURLConnection c =
        (HttpURLConnection) new URL("http://127.0.0.1:" + port + path).openConnection();
    try (InputStream in = c.getInputStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } finally {
      c.disconnect();
    }
  }

  /** Waits up to a minute for the test to create {@code file}. */
  static void awaitFile(Path file) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!Files.exists(file) && System.nanoTime() < deadline) {
      TimeUnit.MILLISECONDS.sleep(10);
    }
  }
}
