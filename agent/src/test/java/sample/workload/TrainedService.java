package sample.workload;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Four kinds of requests through one router, for the unit type training test: the kinds differ only
 * in what the router calls. It sends a first round of requests (training), waits for the file
 * {@code trained}, then a second round with one slow report, whose delay comes before the call that
 * tells reports apart, so the guard there finds it over its threshold.
 */
public final class TrainedService {
  private static final String[] KINDS = {"/search", "/item", "/cart", "/report"};

  private TrainedService() {}

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
      sum += LocalRequests.get(port, KINDS[i % KINDS.length] + "?n=" + i).length();
    }
    LocalRequests.awaitFile(dir.resolve("trained"));
    for (int i = 0; i < 80; i++) {
      sum += LocalRequests.get(port, KINDS[i % KINDS.length] + "?n=" + i).length();
    }
    sum += LocalRequests.get(port, "/report?n=7&slow=1").length();
    System.out.println("served " + sum);
    server.stop(0);
    pool.shutdown();
  }

  /** The one handler of every request. */
  static final class Router implements HttpHandler {
    @Override
    public void handle(HttpExchange exchange) throws IOException {
      String path = exchange.getRequestURI().getPath();
      String query = exchange.getRequestURI().getQuery();
      int n = Integer.parseInt(query.replaceAll("n=([0-9]+).*", "$1"));
      String body;
      switch (path) {
        case "/search" -> body = Catalog.search(n);
        case "/item" -> body = Catalog.item(n);
        case "/cart" -> body = Cart.add(n);
        default -> {
          if (query.contains("slow=1")) {
            Reports.pause(); // before the call that tells reports apart: its guard sees it
          }
          body = Reports.report(n);
        }
      }
      byte[] bytes = Pages.render(body).getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  static final class Catalog {
    static String search(int n) {
      StringBuilder s = new StringBuilder();
      for (int i = 0; i < 5; i++) {
        s.append(Index.lookup(n + i));
      }
      return s.toString();
    }

    static String item(int n) {
      return Index.lookup(n) + Prices.price(n);
    }
  }

  static final class Index {
    static String lookup(int n) {
      return n % 3 == 0 ? "a" + n : "b" + n;
    }
  }

  static final class Prices {
    static String price(int n) {
      return n > 10 ? Integer.toString(n * 3) : Integer.toString(n);
    }
  }

  static final class Cart {
    static String add(int n) {
      return Stock.reserve(n) ? Prices.price(n) : "none";
    }
  }

  static final class Stock {
    static boolean reserve(int n) {
      return Integer.toString(n).length() < 5;
    }
  }

  static final class Reports {
    static String report(int n) {
      return Ledger.total(n) + Ledger.summary(n);
    }

    static void pause() {
      long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
      while (System.nanoTime() < until) {
        Thread.onSpinWait();
      }
    }
  }

  static final class Ledger {
    static String total(int n) {
      long t = 0;
      for (int i = 0; i < n; i++) {
        t += i;
      }
      return Long.toString(t);
    }

    static String summary(int n) {
      return n % 2 == 0 ? "even" : "odd";
    }
  }

  static final class Pages {
    static String render(String body) {
      return body.isEmpty() ? "<empty>" : "<p>" + body + "</p>";
    }
  }
}
