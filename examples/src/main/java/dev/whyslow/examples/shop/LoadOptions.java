package dev.whyslow.examples.shop;

import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * What load to send: {@code --url} of the shop, {@code --rate} (requests per second, fixed), {@code
 * --duration} measured after {@code --warmup}, the {@code --mix} of kinds, optionally {@code
 * --bug-share} to set on the shop first, {@code --json} for a machine-readable summary, {@code
 * --connections} (concurrent requests at most, the generator's own pool), {@code --timeout} per
 * request, {@code --products} (the shop's catalog size) and {@code --seed}.
 *
 * @param bugShare share to set with {@code POST /admin/bug} before the run, or NaN to leave it
 */
public record LoadOptions(
    URI url,
    double rate,
    Duration duration,
    Duration warmup,
    RequestMix mix,
    double bugShare,
    boolean json,
    int connections,
    Duration timeout,
    int products,
    long seed) {

  static final List<String> NAMES =
      List.of(
          "url",
          "rate",
          "duration",
          "warmup",
          "mix",
          "bug-share",
          "connections",
          "timeout",
          "products",
          "seed");

  /**
   * @throws IllegalArgumentException saying which option was wrong, with its value
   */
  public static LoadOptions parse(String... args) {
    Flags flags = Flags.parse("LoadGenerator", args, NAMES, List.of("json"));
    String url = flags.string("url", "http://127.0.0.1:8080");
    URI uri;
    try {
      uri = URI.create(url.endsWith("/") ? url.substring(0, url.length() - 1) : url);
    } catch (IllegalArgumentException e) {
      throw flags.bad("url", url, "an http URL such as http://127.0.0.1:8080");
    }
    if (!"http".equals(uri.getScheme()) || uri.getHost() == null) {
      throw flags.bad("url", url, "an http URL such as http://127.0.0.1:8080");
    }
    RequestMix mix;
    try {
      mix = RequestMix.parse(flags.string("mix", RequestMix.DEFAULT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("LoadGenerator: --mix: " + e.getMessage(), e);
    }
    Duration duration = flags.duration("duration", Duration.ofSeconds(30));
    if (duration.isZero()) {
      throw flags.bad("duration", "0", "longer than zero, e.g. 30s");
    }
    return new LoadOptions(
        uri,
        flags.number("rate", 50, 0.01, 100_000),
        duration,
        flags.duration("warmup", Duration.ofSeconds(10)),
        mix,
        flags.number("bug-share", Double.NaN, 0, 1),
        flags.flag("json"),
        flags.integer("connections", 8, 1, 1024),
        flags.duration("timeout", Duration.ofSeconds(10)),
        flags.integer("products", Catalog.DEFAULT_SIZE, 100, 1_000_000),
        flags.integer("seed", 1, Integer.MIN_VALUE, Integer.MAX_VALUE));
  }
}
