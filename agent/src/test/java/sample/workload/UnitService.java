package sample.workload;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.whyslow.agent.bootstrap.Whyslow;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A small service for the units integration test: a JDK HttpServer on a thread pool with one
 * router, an executor job, a consumer loop that waits on a queue, and declared units. It waits for
 * the file {@code go} before its requests (so the test can send thresholds first), and its slow
 * request waits for the file {@code release} (so the test can see the watchdog catch it).
 */
public final class UnitService {
  private static Path dir;

  private UnitService() {}

  public static void main(String[] args) throws Exception {
    dir = Path.of(args.length > 0 ? args[0] : ".");
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    server.setExecutor(pool);
    server.createContext("/", new Router());
    server.start();
    int port = server.getAddress().getPort();
    awaitFile("go");
    int sum = 0;
    for (int i = 0; i < 20; i++) {
      sum += get(port, "/fast?n=" + i).length();
    }
    sum += get(port, "/slow").length();
    System.out.println("http " + sum);

    pool.submit(UnitService::job).get();

    BlockingQueue<Integer> queue = new ArrayBlockingQueue<>(16);
    Thread consumer = new Thread(() -> consume(queue), "consumer");
    consumer.start();
    for (int i = 1; i <= 5; i++) {
      queue.put(i);
    }
    queue.put(-1);
    consumer.join();

    System.out.println("annotated " + annotated(3) + " declared " + declared(4) + " api " + api());
    server.stop(0);
    pool.shutdown();
  }

  /** The one handler every request goes through. */
  static final class Router implements HttpHandler {
    @Override
    public void handle(HttpExchange exchange) throws IOException {
      String path = exchange.getRequestURI().getPath();
      String body =
          path.equals("/slow") ? slowPath() : fastPath(exchange.getRequestURI().getQuery());
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  static String fastPath(String query) {
    return "fast:" + (query == null ? "" : query);
  }

  static String slowPath() {
    awaitFile("release");
    return "slow";
  }

  static void job() {
    long x = 0;
    for (int i = 0; i < 1000; i++) {
      x += i % 7 == 0 ? i : 1;
    }
    System.out.println("job " + x + " late " + LateClass.sum(10));
  }

  /**
   * First loaded inside the job's unit, which ends a moment later: the unit's run mentions sites
   * that were registered only just before it was queued.
   */
  static final class LateClass {
    private LateClass() {}

    static int sum(int n) {
      int total = 0;
      for (int i = 0; i < n; i++) {
        total += i;
      }
      return total;
    }
  }

  static void consume(BlockingQueue<Integer> queue) {
    int total = 0;
    while (true) {
      int item;
      try {
        item = queue.take();
      } catch (InterruptedException e) {
        return;
      }
      if (item < 0) {
        break;
      }
      total += item * 2;
    }
    System.out.println("consumed " + total);
  }

  @WhyslowUnit
  static int annotated(int n) {
    return n > 1 ? n * 2 : n;
  }

  static int declared(int n) {
    return n > 1 ? n * 3 : n;
  }

  static int api() {
    Whyslow.unitBegin("sample.workload.UnitService.api");
    try {
      return fastPath("api").length() > 4 ? 1 : 0;
    } finally {
      Whyslow.unitEnd();
    }
  }

  private static String get(int port, String path) throws IOException {
    HttpURLConnection c =
        (HttpURLConnection) new URL("http://127.0.0.1:" + port + path).openConnection();
    try (InputStream in = c.getInputStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } finally {
      c.disconnect();
    }
  }

  private static void awaitFile(String name) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!Files.exists(dir.resolve(name)) && System.nanoTime() < deadline) {
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
