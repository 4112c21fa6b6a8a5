package dev.whyslow.examples.shop;

import java.util.SplittableRandom;

/**
 * The shop's request path without HTTP: {@link #round} routes a seeded batch of requests, in the
 * load generator's default mix, straight through a {@link ShopRouter}. For in-process overhead
 * measurements ({@code bench}'s {@code InProcessOverheadBenchmark}), where the network, the
 * server's threads and queueing would drown the agent's cost on the shop's own code.
 *
 * <p>Each class loader that loads this class gets its own catalog and carts, so a plain and an
 * instrumented copy fed the same seeds compute the same checksums.
 */
public final class ShopWorkload {
  /** Requests per round: about a second of the shop's load at 200 requests/s. */
  static final int REQUESTS_PER_ROUND = 200;

  private static final RequestMix MIX = RequestMix.parse(RequestMix.DEFAULT);

  private static ShopRouter router;

  private ShopWorkload() {}

  /** Routes one round of requests drawn from {@code seed}; returns a checksum of the replies. */
  static long round(int seed) {
    ShopRouter r = router();
    SplittableRandom random = new SplittableRandom(seed);
    long checksum = 0;
    for (int i = 0; i < REQUESTS_PER_ROUND; i++) {
      checksum = checksum * 31 + serve(r, random);
    }
    return checksum;
  }

  /**
   * Routes one request drawn from {@code seed}, for measurements that run each request on its own
   * as a service does, with other work between requests; returns a checksum of the reply.
   */
  static long request(int seed) {
    return serve(router(), new SplittableRandom(seed));
  }

  private static long serve(ShopRouter r, SplittableRandom random) {
    String target = MIX.pick(random).path(random, Catalog.DEFAULT_SIZE);
    int query = target.indexOf('?');
    Reply reply =
        r.route("GET", target.substring(0, query), QueryParams.parse(target.substring(query + 1)));
    return reply.status() * 1_000_003L + reply.workSteps() + reply.json().length();
  }

  private static synchronized ShopRouter router() {
    if (router == null) {
      router =
          new ShopRouter(
              Catalog.generate(Catalog.DEFAULT_SIZE, ShopService.CATALOG_SEED),
              new SearchRewrites());
    }
    return router;
  }
}
