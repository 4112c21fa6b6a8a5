package sample.workload;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Two kinds of requests whose work lies a few calls below the unit's first frame, through a static
 * call to another class, an interface call and a private method, for the test of units chosen
 * whole. A first round trains the unit types; after the file {@code trained} appears it writes the
 * time to {@code round2} and sends a second round, whose units the test reads.
 */
public final class WholeUnitService {
  private static final Weigher[] WEIGHERS = {new Light(), new Heavy()};

  private WholeUnitService() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    server.setExecutor(pool);
    server.createContext("/", new Router());
    server.start();
    int port = server.getAddress().getPort();
    long sum = 0;
    for (int i = 0; i < 120; i++) {
      sum += LocalRequests.get(port, (i % 2 == 0 ? "/alpha" : "/beta") + "?n=" + i).length();
    }
    LocalRequests.awaitFile(dir.resolve("trained"));
    Files.writeString(dir.resolve("round2"), Long.toString(System.currentTimeMillis()));
    for (int i = 0; i < 400; i++) {
      sum += LocalRequests.get(port, (i % 2 == 0 ? "/alpha" : "/beta") + "?n=" + i).length();
    }
    System.out.println("served " + sum);
    server.stop(0);
    pool.shutdown();
  }

  /** The one handler of every request. */
  static final class Router implements HttpHandler {
    @Override
    public void handle(HttpExchange exchange) throws IOException {
      String path = exchange.getRequestURI().getPath();
      int n = Integer.parseInt(exchange.getRequestURI().getQuery().substring(2));
      String body = path.equals("/alpha") ? Alpha.run(n) : Beta.run(n);
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  static final class Alpha {
    static String run(int n) {
      return Long.toString(Deep.sum(n, WEIGHERS[n % 4 == 0 ? 0 : 1]));
    }
  }

  static final class Beta {
    static String run(int n) {
      return Deep.label(n);
    }
  }

  static final class Deep {
    static long sum(int n, Weigher w) {
      long t = 0;
      for (int i = 0; i < 40; i++) {
        t += w.weigh(i + n);
      }
      return t;
    }

    static String label(int n) {
      return n % 3 == 0 ? "three" : "other";
    }
  }

  interface Weigher {
    long weigh(int x);
  }

  static final class Light implements Weigher {
    @Override
    public long weigh(int x) {
      return x % 3 == 0 ? x : 1;
    }
  }

  static final class Heavy implements Weigher {
    @Override
    public long weigh(int x) {
      return spread(x);
    }

    private long spread(int x) {
      long s = 0;
      for (int i = 0; i < x % 7; i++) {
        s += i;
      }
      return s;
    }
  }
}
