package dev.whyslow.agent.units.training;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Three kinds of units behind one router, with noise: optional calls, loops of varying length and
 * logging anywhere. Search goes to the index, cart and checkout share price lookups, all three
 * route and render.
 */
final class ShopTraces {
  static final String ENTRY = "com.shop.Router.handle";
  static final int SEARCH = 0;
  static final int CART = 1;
  static final int CHECKOUT = 2;

  private final TraceBuilder.Names names;
  private final Random random;
  private final int frameworkDepth;

  ShopTraces(TraceBuilder.Names names, long seed) {
    this(names, seed, 0);
  }

  /** With {@code frameworkDepth} request-filter frames above the router, as servlet stacks have. */
  ShopTraces(TraceBuilder.Names names, long seed, int frameworkDepth) {
    this.names = names;
    this.random = new Random(seed);
    this.frameworkDepth = frameworkDepth;
  }

  /** {@code perKind} units of each kind, kinds interleaved. */
  List<UnitCallTrace> mixed(int perKind) {
    List<UnitCallTrace> out = new ArrayList<>();
    for (int i = 0; i < perKind; i++) {
      out.add(unit(SEARCH));
      out.add(unit(CART));
      out.add(unit(CHECKOUT));
    }
    return out;
  }

  UnitCallTrace unit(int kind) {
    TraceBuilder b = new TraceBuilder(names, ENTRY);
    for (int f = 0; f < frameworkDepth; f++) {
      b.enter("com.web.Filter" + f + ".doFilter");
    }
    b.enter("com.shop.Router.route");
    maybeLog(b);
    switch (kind) {
      case SEARCH -> {
        b.enter("com.shop.Search.query");
        b.leaf("com.shop.Query.parse");
        for (int i = 0, n = 1 + random.nextInt(6); i < n; i++) {
          b.enter("com.shop.Index.scan");
          if (random.nextBoolean()) {
            b.leaf("com.shop.Tokenizer.split");
          }
          maybeLog(b);
          b.exit();
        }
        render(b);
        b.exit();
      }
      case CART -> {
        b.enter("com.shop.Cart.add");
        b.enter("com.shop.Prices.lookup");
        if (random.nextInt(3) == 0) {
          b.leaf("com.shop.Cache.get");
        }
        b.exit();
        maybeLog(b);
        b.leaf("com.shop.Cart.save");
        render(b);
        b.exit();
      }
      case CHECKOUT -> {
        b.enter("com.shop.Orders.checkout");
        for (int i = 0, n = 1 + random.nextInt(4); i < n; i++) {
          b.enter("com.shop.Prices.lookup");
          if (random.nextInt(3) == 0) {
            b.leaf("com.shop.Cache.get");
          }
          b.exit();
        }
        b.enter("com.shop.Payment.charge");
        b.leaf("com.shop.Http.post");
        maybeLog(b);
        b.exit();
        render(b);
        b.exit();
      }
      default -> throw new IllegalArgumentException("kind " + kind);
    }
    b.exit();
    return b.build();
  }

  private void render(TraceBuilder b) {
    b.enter("com.shop.Render.page");
    b.leaf("com.shop.Html.escape");
    maybeLog(b);
    b.exit();
  }

  private void maybeLog(TraceBuilder b) {
    if (random.nextInt(4) == 0) {
      b.leaf("com.shop.Log.debug");
    }
  }
}
