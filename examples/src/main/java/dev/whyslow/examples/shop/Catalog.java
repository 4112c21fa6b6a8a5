package dev.whyslow.examples.shop;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The shop's products, generated from a seed so that the service and the load generator agree on
 * the names and ids without talking to each other, and an inverted index from each name word to the
 * ids of the products that carry it.
 */
public final class Catalog {
  /** Products in the default catalog. */
  public static final int DEFAULT_SIZE = 30_000;

  /** The nouns customers search for; the admin bug switch rewrites a share of them. */
  public static final List<String> NOUNS =
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
          "wallet",
          "backpack",
          "tote",
          "duffel",
          "blanket",
          "pillow",
          "towel",
          "rug",
          "lamp",
          "mug",
          "bowl",
          "plate",
          "kettle",
          "teapot",
          "vase",
          "candle",
          "mirror",
          "clock",
          "chair",
          "stool",
          "bench",
          "shelf",
          "desk",
          "notebook",
          "pen",
          "journal",
          "umbrella",
          "apron",
          "dress",
          "skirt",
          "trouser",
          "short",
          "hoodie",
          "vest",
          "cardigan",
          "poncho",
          "slipper",
          "beanie");

  /** Colours, the optional first word of a search. */
  public static final List<String> COLORS =
      List.of(
          "navy",
          "olive",
          "rust",
          "ivory",
          "charcoal",
          "sage",
          "mustard",
          "plum",
          "teal",
          "sand",
          "crimson",
          "slate",
          "cobalt",
          "amber",
          "moss",
          "coral");

  static final List<String> MATERIALS =
      List.of(
          "linen",
          "wool",
          "cotton",
          "leather",
          "canvas",
          "ceramic",
          "oak",
          "walnut",
          "bamboo",
          "denim",
          "cashmere",
          "suede",
          "glass",
          "brass",
          "felt",
          "silk");

  static final List<String> STYLES =
      List.of(
          "classic",
          "modern",
          "rustic",
          "vintage",
          "minimal",
          "heritage",
          "coastal",
          "urban",
          "nordic",
          "alpine",
          "studio",
          "field");

  private final List<Product> products;
  private final Map<String, int[]> index;

  private Catalog(List<Product> products, Map<String, int[]> index) {
    this.products = products;
    this.index = index;
  }

  /** A catalog of {@code size} products; the same size and seed give the same catalog. */
  public static Catalog generate(int size, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    List<Product> products = new ArrayList<>(size);
    for (int id = 0; id < size; id++) {
      String style = pick(STYLES, random);
      String color = pick(COLORS, random);
      String material = pick(MATERIALS, random);
      String noun = pick(NOUNS, random);
      String name =
          capital(style) + " " + capital(color) + " " + capital(material) + " " + capital(noun);
      int[] ratings = new int[5 + random.nextInt(20)];
      for (int r = 0; r < ratings.length; r++) {
        ratings[r] = 1 + random.nextInt(5);
      }
      long price = 500 + random.nextInt(30_000);
      products.add(
          new Product(id, name, List.of(style, color, material, noun), noun, price, ratings));
    }
    return new Catalog(List.copyOf(products), buildIndex(products));
  }

  private static Map<String, int[]> buildIndex(List<Product> products) {
    Map<String, List<Integer>> lists = new HashMap<>();
    for (Product p : products) {
      for (String token : p.tokens()) {
        lists.computeIfAbsent(token, t -> new ArrayList<>()).add(p.id());
      }
    }
    Map<String, int[]> index = new HashMap<>();
    lists.forEach(
        (token, ids) -> index.put(token, ids.stream().mapToInt(Integer::intValue).toArray()));
    return Map.copyOf(index);
  }

  public int size() {
    return products.size();
  }

  /** The product with this id; the caller has checked the range. */
  public Product product(int id) {
    return products.get(id);
  }

  public List<Product> products() {
    return products;
  }

  /** Ids of the products whose name has this word, ascending; empty when none has. */
  int[] postings(String token) {
    return index.getOrDefault(token, new int[0]);
  }

  private static String pick(List<String> words, SplittableRandom random) {
    return words.get(random.nextInt(words.size()));
  }

  private static String capital(String word) {
    return word.substring(0, 1).toUpperCase(Locale.ROOT) + word.substring(1);
  }
}
