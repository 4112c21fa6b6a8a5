package dev.whyslow.bench.guard;

import dev.whyslow.agent.units.training.MethodNames;
import dev.whyslow.agent.units.training.UnitCallTrace;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Call traces of three kinds of units behind one router (search, add to cart, checkout), with
 * noise: optional calls, loops of varying length, logging anywhere, and {@code frameworkDepth}
 * frames of request handling above the router, as a servlet or Netty stack would add.
 */
final class SyntheticShopUnits implements MethodNames {
  static final String ENTRY = "com.shop.Router.handle";
  static final int KINDS = 3;

  private final Map<String, Integer> ids = new HashMap<>();
  private final List<String> byId = new ArrayList<>();
  private final Random random;
  private final int frameworkDepth;
  private final List<Integer> methods = new ArrayList<>();
  private final List<Integer> depths = new ArrayList<>();
  private int depth;

  SyntheticShopUnits(long seed, int frameworkDepth) {
    this.random = new Random(seed);
    this.frameworkDepth = frameworkDepth;
  }

  @Override
  public String nameOf(int methodId) {
    return byId.get(methodId);
  }

  int id(String name) {
    Integer id = ids.get(name);
    if (id == null) {
      id = byId.size();
      byId.add(name);
      ids.put(name, id);
    }
    return id;
  }

  /** {@code perKind} units of each kind, interleaved. */
  List<UnitCallTrace> mixed(int perKind) {
    List<UnitCallTrace> out = new ArrayList<>();
    for (int i = 0; i < perKind; i++) {
      for (int kind = 0; kind < KINDS; kind++) {
        out.add(unit(kind));
      }
    }
    return out;
  }

  UnitCallTrace unit(int kind) {
    methods.clear();
    depths.clear();
    depth = 0;
    for (int f = 0; f < frameworkDepth; f++) {
      enter("com.web.Filter" + f + ".doFilter");
    }
    enter("com.shop.Router.route");
    maybeLog();
    switch (kind) {
      case 0 -> {
        enter("com.shop.Search.query");
        leaf("com.shop.Query.parse");
        for (int i = 0, n = 1 + random.nextInt(6); i < n; i++) {
          enter("com.shop.Index.scan");
          if (random.nextBoolean()) {
            leaf("com.shop.Tokenizer.split");
          }
          maybeLog();
          exit();
        }
        render();
        exit();
      }
      case 1 -> {
        enter("com.shop.Cart.add");
        prices();
        maybeLog();
        leaf("com.shop.Cart.save");
        render();
        exit();
      }
      default -> {
        enter("com.shop.Orders.checkout");
        for (int i = 0, n = 1 + random.nextInt(4); i < n; i++) {
          prices();
        }
        enter("com.shop.Payment.charge");
        leaf("com.shop.Http.post");
        maybeLog();
        exit();
        render();
        exit();
      }
    }
    exit();
    int[] m = new int[methods.size()];
    int[] d = new int[depths.size()];
    for (int i = 0; i < m.length; i++) {
      m[i] = methods.get(i);
      d[i] = depths.get(i);
    }
    return new UnitCallTrace(ENTRY, m, d);
  }

  private void prices() {
    enter("com.shop.Prices.lookup");
    if (random.nextInt(3) == 0) {
      leaf("com.shop.Cache.get");
    }
    exit();
  }

  private void render() {
    enter("com.shop.Render.page");
    leaf("com.shop.Html.escape");
    maybeLog();
    exit();
  }

  private void maybeLog() {
    if (random.nextInt(4) == 0) {
      leaf("com.shop.Log.debug");
    }
  }

  private void enter(String method) {
    depth++;
    methods.add(id(method));
    depths.add(depth);
  }

  private void exit() {
    depth--;
  }

  private void leaf(String method) {
    enter(method);
    exit();
  }
}
