package dev.whyslow.examples.shop;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Merchandising rules that rewrite search words before the search runs. By default every noun maps
 * to itself. The admin bug switch ({@code POST /admin/bug?share=0.05}) installs the rules a
 * merchandiser would add to widen nouns to their prefix, {@code shirt} to {@code shirt*} (so
 * "shirtdress" is found too), for that share of the nouns; since the load generator draws nouns
 * evenly, about that share of searches then carry a wildcard and take the slow path of {@link
 * CatalogSearch}. The rules are a map lookup for every word, so which words are rewritten is not a
 * branch in the shop's code: the branch that tells slow searches apart stays the root cause.
 */
final class SearchRewrites {
  /** The nouns in the order the switch rewrites them, fixed so runs are repeatable. */
  private static final List<String> ORDER = shuffledNouns();

  private volatile Map<String, String> rules = Map.of();
  private volatile double share;

  /**
   * Rewrites {@code share} of the nouns (rounded to whole nouns) to prefix wildcards and returns
   * the share in effect.
   *
   * @throws BadRequestException when share is not a number from 0 to 1
   */
  synchronized double setShare(double share) {
    if (!(share >= 0 && share <= 1)) {
      throw new BadRequestException(
          "share must be a number from 0 to 1 (the share of searches that hit the slow path), was "
              + share);
    }
    int count = (int) Math.round(share * ORDER.size());
    Map<String, String> next = new HashMap<>();
    for (String noun : ORDER.subList(0, count)) {
      next.put(noun, noun + "*");
    }
    rules = Map.copyOf(next);
    this.share = (double) count / ORDER.size();
    return this.share;
  }

  double share() {
    return share;
  }

  /** The rewritten nouns, in the switch's order. */
  List<String> rewrittenNouns() {
    return ORDER.subList(0, rules.size());
  }

  /** The words after the rules: each word replaced by its rule's pattern, or kept. */
  String[] apply(String[] words) {
    Map<String, String> current = rules;
    String[] out = new String[words.length];
    for (int i = 0; i < words.length; i++) {
      out[i] = current.getOrDefault(words[i], words[i]);
    }
    return out;
  }

  private static List<String> shuffledNouns() {
    List<String> nouns = new ArrayList<>(Catalog.NOUNS);
    Collections.shuffle(nouns, new Random(4));
    return List.copyOf(nouns);
  }
}
