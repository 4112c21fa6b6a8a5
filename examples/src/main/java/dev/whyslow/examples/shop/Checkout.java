package dev.whyslow.examples.shop;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code POST|GET /checkout?cart=c7&region=us-ca}: takes the cart's lines, prices them, adds the
 * region's tax (clothing and home goods differ), reserves stock (restocking a product that runs
 * out) and packs the order into parcels. An empty cart answers with {@code "status":"empty"}.
 */
final class Checkout {
  /** Sales tax in basis points per region: clothing, then home goods. */
  static final Map<String, int[]> TAX_BASIS_POINTS =
      Map.of(
          "us-ca", new int[] {725, 725},
          "us-ny", new int[] {0, 400},
          "us-tx", new int[] {625, 625},
          "de", new int[] {1900, 1900},
          "fr", new int[] {2000, 2000},
          "uk", new int[] {0, 2000},
          "jp", new int[] {1000, 1000});

  static final int STOCK_PER_PRODUCT = 200;
  static final int PARCEL_GRAMS = 5_000;

  private static final List<String> CLOTHING =
      List.of(
          "shirt",
          "sweater",
          "jacket",
          "coat",
          "scarf",
          "hat",
          "glove",
          "sock",
          "boot",
          "sneaker",
          "sandal",
          "belt",
          "dress",
          "skirt",
          "trouser",
          "short",
          "hoodie",
          "vest",
          "cardigan",
          "poncho",
          "slipper",
          "beanie",
          "apron");

  private final Catalog catalog;
  private final Carts carts;
  private final Map<Integer, Integer> stock = new ConcurrentHashMap<>();
  private final AtomicLong orders = new AtomicLong();

  Checkout(Catalog catalog, Carts carts) {
    this.catalog = catalog;
    this.carts = carts;
  }

  Reply checkout(String cartId, String region, Work work) {
    int[] tax = TAX_BASIS_POINTS.get(region.toLowerCase(Locale.ROOT));
    if (tax == null) {
      throw new BadRequestException(
          "region must be one of " + TAX_BASIS_POINTS.keySet() + ", was '" + region + "'");
    }
    Map<Integer, Integer> lines = carts.takeLines(cartId);
    if (lines.isEmpty()) {
      return Reply.ok(
          new JsonOut().begin().field("cart", cartId).field("status", "empty").end().toString(),
          work);
    }
    long subtotal = 0;
    long taxCents = 0;
    List<Integer> weights = new ArrayList<>();
    for (Map.Entry<Integer, Integer> line : lines.entrySet()) {
      Product product = catalog.product(line.getKey());
      long price = Pricing.linePrice(product, line.getValue(), work);
      subtotal += price;
      taxCents += price * tax[CLOTHING.contains(product.noun()) ? 0 : 1] / 10_000;
      reserve(product.id(), line.getValue());
      for (int piece = 0; piece < line.getValue(); piece++) {
        weights.add(grams(product));
      }
      work.add(1);
    }
    int parcels = pack(weights, work);
    long order = orders.incrementAndGet();
    return Reply.ok(
        new JsonOut()
            .begin()
            .field("cart", cartId)
            .field("status", "ordered")
            .field("order", "o-" + Long.toString(order, 36))
            .field("lines", lines.size())
            .money("subtotal", subtotal)
            .money("tax", taxCents)
            .money("total", subtotal + taxCents)
            .field("parcels", parcels)
            .end()
            .toString(),
        work);
  }

  /** Takes stock for the line; a product that runs out is restocked, as the warehouse would. */
  private void reserve(int productId, int quantity) {
    stock.compute(
        productId,
        (id, left) -> {
          int available = left == null ? STOCK_PER_PRODUCT : left;
          return available >= quantity ? available - quantity : STOCK_PER_PRODUCT - quantity;
        });
  }

  /** A product's shipping weight, from its noun and material. */
  private static int grams(Product product) {
    return 150
        + Math.floorMod(product.noun().hashCode() * 31 + product.tokens().get(2).hashCode(), 1_800);
  }

  /** First-fit decreasing: heaviest pieces first, each into the first parcel it fits in. */
  private static int pack(List<Integer> weights, Work work) {
    weights.sort((a, b) -> Integer.compare(b, a));
    List<int[]> parcels = new ArrayList<>();
    for (int weight : weights) {
      int[] target = null;
      for (int[] parcel : parcels) {
        work.add(1);
        if (parcel[0] + weight <= PARCEL_GRAMS) {
          target = parcel;
          break;
        }
      }
      if (target == null) {
        target = new int[1];
        parcels.add(target);
      }
      target[0] += weight;
    }
    return parcels.size();
  }
}
