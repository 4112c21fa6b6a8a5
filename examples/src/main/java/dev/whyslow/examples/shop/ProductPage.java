package dev.whyslow.examples.shop;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * {@code GET /product?id=42}: one product with its price, a summary of its ratings and the products
 * most like it (same noun, most words in common, best rated).
 */
final class ProductPage {
  /** Related products shown on a page. */
  static final int RELATED = 8;

  private final Catalog catalog;

  ProductPage(Catalog catalog) {
    this.catalog = catalog;
  }

  private record Related(Product product, int sharedWords, int ratingTenths) {}

  Reply render(int id, Work work) {
    Product product = catalog.product(checkedId(catalog, id));
    int[] histogram = new int[6];
    long sum = 0;
    for (int rating : product.ratings()) {
      histogram[rating]++;
      sum += rating;
    }
    work.add(product.ratings().length);
    JsonOut json =
        new JsonOut()
            .begin()
            .field("id", product.id())
            .field("name", product.name())
            .money("price", Pricing.unitPrice(product, work))
            .field("listPrice", Pricing.format(product.priceCents()))
            .field("rating", sum * 10 / product.ratings().length / 10.0)
            .field("reviews", product.ratings().length);
    json.beginArray("stars");
    for (int stars = 5; stars >= 1; stars--) {
      json.element().field("stars", stars).field("count", histogram[stars]).end();
    }
    json.endArray().beginArray("related");
    for (Related related : related(product, work)) {
      json.element()
          .field("id", related.product().id())
          .field("name", related.product().name())
          .money("price", Pricing.unitPrice(related.product(), work))
          .end();
    }
    return Reply.ok(json.endArray().end().toString(), work);
  }

  private List<Related> related(Product product, Work work) {
    List<Related> candidates = new ArrayList<>();
    for (int other : catalog.postings(product.noun())) {
      if (other == product.id()) {
        continue;
      }
      Product p = catalog.product(other);
      int shared = 0;
      for (String word : p.tokens()) {
        shared += product.tokens().contains(word) ? 1 : 0;
      }
      long sum = 0;
      for (int rating : p.ratings()) {
        sum += rating;
      }
      work.add(p.tokens().size() + p.ratings().length);
      candidates.add(new Related(p, shared, (int) (sum * 10 / p.ratings().length)));
    }
    candidates.sort(
        Comparator.comparingInt(Related::sharedWords)
            .thenComparingInt(Related::ratingTenths)
            .reversed()
            .thenComparingInt(r -> r.product().id()));
    return candidates.subList(0, Math.min(RELATED, candidates.size()));
  }

  /**
   * @throws BadRequestException (404) when no product has this id
   */
  static int checkedId(Catalog catalog, int id) {
    if (id < 0 || id >= catalog.size()) {
      throw new BadRequestException(
          404, "no product with id " + id + "; ids go from 0 to " + (catalog.size() - 1));
    }
    return id;
  }
}
