package dev.whyslow.examples.shop;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The example service for units, thresholds and alerts: a small shop on the JDK's {@link
 * HttpServer} with a fixed thread pool, every request through one {@link ShopRouter}. Its request
 * kinds (search, product page, add to cart, checkout) share pricing and rendering code but differ
 * in what they call, so the agent's unit types come from calling context. Searches have a
 * performance bug that only wildcard searches trigger (see {@link CatalogSearch} for the root
 * cause), and the share of searches that trigger it can be switched at run time with {@code POST
 * /admin/bug?share=0.05}.
 *
 * <p>Usage: {@code ShopService [--port 8080] [--threads 4] [--bug-share 0] [--products 30000]}. It
 * binds to loopback and prints {@code shop listening on PORT} once it accepts requests.
 */
public final class ShopService implements AutoCloseable {
  /** Seed of the catalog; the load generator generates the same catalog from it. */
  public static final long CATALOG_SEED = 42;

  private static final String NODELAY = "sun.net.httpserver.nodelay";

  private final HttpServer server;
  private final ExecutorService pool;
  private final SearchRewrites rewrites;

  private ShopService(HttpServer server, ExecutorService pool, SearchRewrites rewrites) {
    this.server = server;
    this.pool = pool;
    this.rewrites = rewrites;
  }

  /** Starts the shop on loopback; port 0 picks a free port, see {@link #port()}. */
  public static ShopService start(ShopOptions options) throws IOException {
    // The JDK server writes a reply's headers and body as two segments; without TCP_NODELAY the
    // second waits for the client's delayed ACK, adding about 40 ms to many replies. Read once,
    // when the server's configuration class loads, so it must be set before the first server.
    if (System.getProperty(NODELAY) == null) {
      System.setProperty(NODELAY, "true");
    }
    Catalog catalog = Catalog.generate(options.products(), CATALOG_SEED);
    SearchRewrites rewrites = new SearchRewrites();
    rewrites.setShare(options.bugShare());
    HttpServer server =
        HttpServer.create(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), options.port()), 128);
    ExecutorService pool = Executors.newFixedThreadPool(options.threads());
    server.setExecutor(pool);
    server.createContext("/", new ShopRouter(catalog, rewrites));
    server.start();
    return new ShopService(server, pool, rewrites);
  }

  public int port() {
    return server.getAddress().getPort();
  }

  /** The share of searches that hit the slow path, as {@code POST /admin/bug?share=} sets it. */
  public double setBugShare(double share) {
    return rewrites.setShare(share);
  }

  public double bugShare() {
    return rewrites.share();
  }

  @Override
  public void close() {
    server.stop(0);
    pool.shutdownNow();
    try {
      pool.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  public static void main(String[] args) throws IOException {
    ShopOptions options;
    try {
      options = ShopOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.println(
          "usage: ShopService [--port 8080] [--threads 4] [--bug-share 0] [--products 30000]");
      System.exit(2);
      return;
    }
    ShopService shop;
    try {
      shop = start(options);
    } catch (IOException e) {
      System.err.println(
          "ShopService: cannot listen on 127.0.0.1:"
              + options.port()
              + ": "
              + e.getMessage()
              + "; pick another --port, or 0 for a free one");
      System.exit(1);
      return;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(shop::close, "shop-shutdown"));
    System.out.println("shop listening on " + shop.port());
    System.out.flush();
  }
}
