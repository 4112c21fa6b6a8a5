package dev.whyslow.examples.shop;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code POST|GET /cart/add?cart=c7&id=42&qty=2}: puts a product in a cart (carts are created on
 * first use and hold at most {@link #MAX_LINES} products, the oldest line giving way), prices the
 * cart and suggests a few cheaper products of the same material.
 */
final class Carts {
  static final int MAX_LINES = 30;
  static final int MAX_QUANTITY = 99;
  static final int SUGGESTIONS = 5;

  private final Catalog catalog;
  private final Map<String, Map<Integer, Integer>> carts = new ConcurrentHashMap<>();

  Carts(Catalog catalog) {
    this.catalog = catalog;
  }

  Reply add(String cartId, int productId, int quantity, Work work) {
    Product product = catalog.product(ProductPage.checkedId(catalog, productId));
    if (quantity < 1 || quantity > MAX_QUANTITY) {
      throw new BadRequestException(
          "qty must be from 1 to " + MAX_QUANTITY + ", was " + quantity + " (e.g. &qty=2)");
    }
    // compute() runs under the map's lock for this cart, so a checkout taking the cart away
    // (takeLines) never races with an add into it.
    List<Map<Integer, Integer>> snapshot = new ArrayList<>(1);
    carts.compute(
        cartId,
        (id, current) -> {
          Map<Integer, Integer> next = current == null ? new LinkedHashMap<>() : current;
          next.merge(product.id(), quantity, (a, b) -> Math.min(MAX_QUANTITY, a + b));
          while (next.size() > MAX_LINES) {
            next.remove(next.keySet().iterator().next());
          }
          snapshot.add(new LinkedHashMap<>(next));
          return next;
        });
    Map<Integer, Integer> lines = snapshot.get(0);
    long subtotal = 0;
    for (Map.Entry<Integer, Integer> line : lines.entrySet()) {
      subtotal += Pricing.linePrice(catalog.product(line.getKey()), line.getValue(), work);
    }
    JsonOut json =
        new JsonOut()
            .begin()
            .field("cart", cartId)
            .field("lines", lines.size())
            .money("subtotal", subtotal);
    json.beginArray("suggestions");
    for (Product suggestion : suggestions(product, work)) {
      json.element()
          .field("id", suggestion.id())
          .field("name", suggestion.name())
          .money("price", Pricing.unitPrice(suggestion, work))
          .end();
    }
    return Reply.ok(json.endArray().end().toString(), work);
  }

  /** Takes the cart's lines away for checkout; empty when the cart has none. */
  Map<Integer, Integer> takeLines(String cartId) {
    Map<Integer, Integer> lines = carts.remove(cartId);
    return lines == null ? Map.of() : lines;
  }

  /** Products of the same material but another noun, cheapest first. */
  private List<Product> suggestions(Product product, Work work) {
    String material = product.tokens().get(2);
    List<Product> found = new ArrayList<>();
    for (int id : catalog.postings(material)) {
      Product p = catalog.product(id);
      work.add(1);
      if (!p.noun().equals(product.noun()) && p.priceCents() < product.priceCents()) {
        found.add(p);
      }
    }
    found.sort(Comparator.comparingLong(Product::priceCents).thenComparingInt(Product::id));
    return found.subList(0, Math.min(SUGGESTIONS, found.size()));
  }
}
