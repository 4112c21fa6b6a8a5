package dev.whyslow.examples.shop;

import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Weights of the request kinds, e.g. {@code search=50,product=30,cart=15,checkout=5}; each
 * request's kind is drawn with probability proportional to its weight.
 */
public record RequestMix(Map<RequestKind, Integer> weights) {
  public static final String DEFAULT = "search=50,product=30,cart=15,checkout=5";

  public RequestMix {
    weights = Map.copyOf(weights);
  }

  /**
   * @throws IllegalArgumentException naming the bad piece of {@code text}
   */
  public static RequestMix parse(String text) {
    Map<RequestKind, Integer> weights = new EnumMap<>(RequestKind.class);
    for (String piece : text.split(",")) {
      int eq = piece.indexOf('=');
      if (eq < 0) {
        throw new IllegalArgumentException(
            "mix piece '" + piece + "' must be kind=weight, e.g. " + DEFAULT);
      }
      RequestKind kind = RequestKind.parse(piece.substring(0, eq));
      int weight;
      try {
        weight = Integer.parseInt(piece.substring(eq + 1).trim());
      } catch (NumberFormatException e) {
        weight = -1;
      }
      if (weight < 0) {
        throw new IllegalArgumentException(
            "weight of "
                + kind.spelling()
                + " must be a whole number >= 0, was '"
                + piece.substring(eq + 1)
                + "'");
      }
      weights.put(kind, weight);
    }
    if (weights.values().stream().mapToInt(Integer::intValue).sum() == 0) {
      throw new IllegalArgumentException(
          "mix '" + text + "' gives every kind weight 0; e.g. " + DEFAULT);
    }
    return new RequestMix(weights);
  }

  /** A kind drawn with probability proportional to its weight. */
  RequestKind pick(SplittableRandom random) {
    int total = 0;
    for (int w : weights.values()) {
      total += w;
    }
    int r = random.nextInt(total);
    for (RequestKind kind : RequestKind.values()) {
      r -= weights.getOrDefault(kind, 0);
      if (r < 0) {
        return kind;
      }
    }
    throw new IllegalStateException("weights changed while picking");
  }
}
