package dev.whyslow.examples.shop;

import java.util.List;

/**
 * Prices with the running promotions and volume discounts. Search results, product pages, carts and
 * checkouts all price through here, so these methods appear in every unit type's calls and cannot
 * tell the types apart on their own.
 */
final class Pricing {
  /** A promotion: products whose name has {@code word} are {@code percentOff} cheaper. */
  record Promotion(String word, int percentOff) {}

  static final List<Promotion> PROMOTIONS =
      List.of(
          new Promotion("linen", 15),
          new Promotion("wool", 10),
          new Promotion("ceramic", 20),
          new Promotion("sage", 5),
          new Promotion("vintage", 12),
          new Promotion("canvas", 8),
          new Promotion("oak", 10),
          new Promotion("cobalt", 7),
          new Promotion("nordic", 9),
          new Promotion("felt", 6));

  private Pricing() {}

  /** The product's price after the best promotion that applies to it, in cents. */
  static long unitPrice(Product product, Work work) {
    int best = 0;
    for (Promotion promotion : PROMOTIONS) {
      for (String token : product.tokens()) {
        work.add(1);
        if (token.equals(promotion.word()) && promotion.percentOff() > best) {
          best = promotion.percentOff();
        }
      }
    }
    return product.priceCents() * (100 - best) / 100;
  }

  /** {@code quantity} of the product: 5 % off from 3 pieces, 10 % from 10. */
  static long linePrice(Product product, int quantity, Work work) {
    long total = unitPrice(product, work) * quantity;
    int volumePercent = quantity >= 10 ? 10 : quantity >= 3 ? 5 : 0;
    return total * (100 - volumePercent) / 100;
  }

  /** Cents as a decimal amount, {@code 1205} as {@code "12.05"}. */
  static String format(long cents) {
    long abs = Math.abs(cents);
    String sign = cents < 0 ? "-" : "";
    long fraction = abs % 100;
    return sign + abs / 100 + (fraction < 10 ? ".0" : ".") + fraction;
  }
}
