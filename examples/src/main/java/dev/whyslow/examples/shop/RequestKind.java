package dev.whyslow.examples.shop;

import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The shop's request kinds as the load generator sends them, each with a generator of realistic
 * requests: searches for a noun, most often with a colour; product pages and cart additions over
 * the whole catalog; checkouts of one of {@link #CARTS} carts.
 */
public enum RequestKind {
  SEARCH,
  PRODUCT,
  CART,
  CHECKOUT;

  /** Carts the load generator fills and checks out. */
  static final int CARTS = 32;

  private static final List<String> REGIONS =
      List.of("us-ca", "us-ny", "us-tx", "de", "fr", "uk", "jp");

  /** The spelling in {@code --mix} and the summary, e.g. {@code search}. */
  public String spelling() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** A request path with its query, e.g. {@code /search?q=navy+shirt}. */
  String path(SplittableRandom random, int products) {
    switch (this) {
      case SEARCH:
        String noun = Catalog.NOUNS.get(random.nextInt(Catalog.NOUNS.size()));
        return random.nextInt(10) < 7
            ? "/search?q=" + Catalog.COLORS.get(random.nextInt(Catalog.COLORS.size())) + "+" + noun
            : "/search?q=" + noun;
      case PRODUCT:
        return "/product?id=" + random.nextInt(products);
      case CART:
        return "/cart/add?cart=c"
            + random.nextInt(CARTS)
            + "&id="
            + random.nextInt(products)
            + "&qty="
            + (1 + random.nextInt(3));
      default:
        return "/checkout?cart=c"
            + random.nextInt(CARTS)
            + "&region="
            + REGIONS.get(random.nextInt(REGIONS.size()));
    }
  }

  static RequestKind parse(String text) {
    for (RequestKind kind : values()) {
      if (kind.spelling().equals(text.trim().toLowerCase(Locale.ROOT))) {
        return kind;
      }
    }
    throw new IllegalArgumentException(
        "unknown request kind '" + text + "'; kinds are search, product, cart, checkout");
  }
}
