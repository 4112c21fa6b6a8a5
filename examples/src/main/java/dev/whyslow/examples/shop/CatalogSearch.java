package dev.whyslow.examples.shop;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * {@code GET /search?q=navy+shirt}: finds products whose names have every word of the query, ranks
 * them and returns the first page. Words are looked up in the catalog's inverted index and the
 * posting lists intersected, a few hundred microseconds for the usual query.
 *
 * <p><b>The performance bug</b> (Song and Lu's "branch slow path"): a query with a wildcard, such
 * as {@code shirt*} (sent by a customer, or made by a {@link SearchRewrites} rule), cannot use the
 * index, so {@link #search} sends it to {@link #scanNames}, which lower-cases and splits every
 * product name and matches each word with {@link String#matches} (compiling the pattern anew each
 * time) — a hundred times the time of an indexed search. <b>Root cause site:</b> the branch marked
 * {@code // ROOT CAUSE} in {@link #search}, whose outcome alone tells the slow searches from the
 * fast ones; the automatic diagnosis of the search unit type must rank it first. The fix would be a
 * sorted word dictionary, so a prefix becomes a range of index entries.
 */
final class CatalogSearch {
  /** Results per page. */
  static final int PAGE_SIZE = 20;

  /** Colour facets shown with the results. */
  static final int FACETS = 6;

  private final Catalog catalog;
  private final SearchRewrites rewrites;

  CatalogSearch(Catalog catalog, SearchRewrites rewrites) {
    this.catalog = catalog;
    this.rewrites = rewrites;
  }

  private record Scored(Product product, long score) {}

  Reply search(String query, Work work) {
    String trimmed = query.trim().toLowerCase(Locale.ROOT);
    if (trimmed.isEmpty()) {
      throw new BadRequestException(
          "q is required and must have a word, e.g. /search?q=navy+shirt");
    }
    String[] terms = rewrites.apply(trimmed.split("\\s+"));
    String pattern = String.join(" ", terms);
    int[] matches;
    if (pattern.indexOf('*') < 0) { // ROOT CAUSE: a wildcard skips the index
      matches = lookUp(terms, work);
    } else {
      matches = scanNames(terms, work);
    }
    List<Scored> page = rank(matches, terms, work);
    JsonOut json = new JsonOut().begin().field("query", query).field("total", matches.length);
    json.beginArray("colors");
    for (Map.Entry<String, Integer> facet : colorFacets(matches, work)) {
      json.element().field("color", facet.getKey()).field("count", facet.getValue()).end();
    }
    json.endArray().beginArray("results");
    for (Scored scored : page) {
      Product p = scored.product();
      json.element()
          .field("id", p.id())
          .field("name", p.name())
          .money("price", Pricing.unitPrice(p, work))
          .field("score", scored.score())
          .end();
    }
    return Reply.ok(json.endArray().end().toString(), work);
  }

  /** The indexed path: intersects the words' posting lists, shortest first. */
  private int[] lookUp(String[] terms, Work work) {
    int[][] lists = new int[terms.length][];
    for (int i = 0; i < terms.length; i++) {
      lists[i] = catalog.postings(terms[i]);
    }
    Arrays.sort(lists, Comparator.comparingInt(list -> list.length));
    int[] result = lists[0];
    work.add(result.length);
    for (int i = 1; i < lists.length; i++) {
      result = intersect(result, lists[i], work);
    }
    return result;
  }

  private static int[] intersect(int[] a, int[] b, Work work) {
    int[] out = new int[Math.min(a.length, b.length)];
    int n = 0;
    int i = 0;
    int j = 0;
    while (i < a.length && j < b.length) {
      work.add(1);
      if (a[i] == b[j]) {
        out[n++] = a[i];
        i++;
        j++;
      } else if (a[i] < b[j]) {
        i++;
      } else {
        j++;
      }
    }
    return Arrays.copyOf(out, n);
  }

  /**
   * The slow path: every product's name, lower-cased and split into words, against every term of
   * the pattern, each word through {@link String#matches}, which compiles the pattern again for
   * every call.
   */
  private int[] scanNames(String[] terms, Work work) {
    String[] regexes = new String[terms.length];
    for (int t = 0; t < terms.length; t++) {
      regexes[t] = globToRegex(terms[t]);
    }
    int[] out = new int[catalog.size()];
    int n = 0;
    for (Product product : catalog.products()) {
      String[] words = product.name().toLowerCase(Locale.ROOT).split(" ");
      boolean all = true;
      for (String regex : regexes) {
        boolean any = false;
        for (String word : words) {
          work.add(1);
          any |= word.matches(regex);
        }
        all &= any;
      }
      if (all) {
        out[n++] = product.id();
      }
    }
    return Arrays.copyOf(out, n);
  }

  /** A regular expression for a search pattern where {@code *} stands for any characters. */
  static String globToRegex(String glob) {
    StringBuilder regex = new StringBuilder();
    int literalStart = 0;
    for (int i = glob.indexOf('*'); i >= 0; i = glob.indexOf('*', literalStart)) {
      regex.append(Pattern.quote(glob.substring(literalStart, i))).append(".*");
      literalStart = i + 1;
    }
    return regex.append(Pattern.quote(glob.substring(literalStart))).toString();
  }

  /** The colours most of the matches come in, with their counts, most frequent first. */
  private List<Map.Entry<String, Integer>> colorFacets(int[] matches, Work work) {
    Map<String, Integer> counts = new HashMap<>();
    for (int id : matches) {
      counts.merge(catalog.product(id).tokens().get(1), 1, Integer::sum);
    }
    work.add(matches.length);
    List<Map.Entry<String, Integer>> facets = new ArrayList<>(counts.entrySet());
    facets.sort(
        Map.Entry.<String, Integer>comparingByValue()
            .reversed()
            .thenComparing(Map.Entry.comparingByKey()));
    return facets.subList(0, Math.min(FACETS, facets.size()));
  }

  /** Scores the matches (exact word hits, then ratings) and keeps the best page. */
  private List<Scored> rank(int[] matches, String[] terms, Work work) {
    List<Scored> scored = new ArrayList<>(matches.length);
    for (int id : matches) {
      Product product = catalog.product(id);
      long exact = 0;
      for (String term : terms) {
        exact += product.tokens().contains(term) ? 1 : 0;
      }
      long ratingSum = 0;
      for (int rating : product.ratings()) {
        ratingSum += rating;
      }
      work.add(terms.length + product.ratings().length);
      scored.add(new Scored(product, exact * 1000 + ratingSum * 100 / product.ratings().length));
    }
    scored.sort(
        Comparator.comparingLong(Scored::score).reversed().thenComparingInt(s -> s.product().id()));
    return scored.subList(0, Math.min(PAGE_SIZE, scored.size()));
  }
}
