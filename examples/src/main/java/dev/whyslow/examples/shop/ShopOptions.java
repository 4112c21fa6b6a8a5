package dev.whyslow.examples.shop;

import java.util.List;

/**
 * How to start the shop: {@code --port} (0 picks a free one), {@code --threads} (the request pool),
 * {@code --bug-share} (share of searches that hit the slow path from the start, 0 to 1) and {@code
 * --products} (catalog size; the load generator must use the same).
 */
public record ShopOptions(int port, int threads, double bugShare, int products) {
  static final List<String> NAMES = List.of("port", "threads", "bug-share", "products");

  public static ShopOptions defaults() {
    return new ShopOptions(8080, 4, 0, Catalog.DEFAULT_SIZE);
  }

  /**
   * @throws IllegalArgumentException saying which option was wrong, with its value
   */
  public static ShopOptions parse(String... args) {
    Flags flags = Flags.parse("ShopService", args, NAMES);
    ShopOptions d = defaults();
    return new ShopOptions(
        flags.integer("port", d.port(), 0, 65_535),
        flags.integer("threads", d.threads(), 1, 512),
        flags.number("bug-share", d.bugShare(), 0, 1),
        flags.integer("products", d.products(), 100, 1_000_000));
  }

  public ShopOptions withPort(int port) {
    return new ShopOptions(port, threads, bugShare, products);
  }

  public ShopOptions withProducts(int count) {
    return new ShopOptions(port, threads, bugShare, count);
  }

  public ShopOptions withBugShare(double share) {
    return new ShopOptions(port, threads, share, products);
  }
}
