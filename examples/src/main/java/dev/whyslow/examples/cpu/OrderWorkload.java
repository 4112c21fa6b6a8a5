package dev.whyslow.examples.cpu;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A CPU-bound workload shaped like a service's business logic rather than like a numeric kernel: it
 * parses order lines, validates them, prices them with discounts and taxes, aggregates per customer
 * and per region, ranks customers and renders a report. Where {@link CpuWorkload} is the worst case
 * for per-evaluation probes (loops of a few instructions), this is what most JVM services spend
 * their CPU on; the overhead benchmark reports both.
 *
 * <p>Usage: {@code OrderWorkload [warmupRounds] [measuredRounds]}; output: {@code elapsed_ms=...
 * checksum=...}.
 */
public final class OrderWorkload {
  private static final String[] REGIONS = {"north", "south", "east", "west", "central"};
  private static final String[] SKUS = {
    "apple", "bread", "cheese", "dates", "eggs", "flour", "grapes", "honey", "ice", "jam"
  };

  private OrderWorkload() {}

  public static void main(String[] args) {
    int warmup = args.length > 0 ? Integer.parseInt(args[0]) : 20;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 40;
    long checksum = 0;
    for (int i = 0; i < warmup; i++) {
      checksum += round(i);
    }
    long start = System.nanoTime();
    for (int i = 0; i < rounds; i++) {
      checksum += round(warmup + i);
    }
    long elapsedNanos = System.nanoTime() - start;
    System.out.printf(Locale.ROOT, "elapsed_ms=%.3f checksum=%d%n", elapsedNanos / 1e6, checksum);
  }

  record Order(String customer, String region, String sku, int quantity, long unitCents) {}

  record Totals(String customer, long cents, int orders) {}

  static long round(int seed) {
    List<String> lines = generate(seed, 4_000);
    List<Order> orders = new ArrayList<>(lines.size());
    for (String line : lines) {
      Order order = parse(line);
      if (order != null && valid(order)) {
        orders.add(order);
      }
    }
    Map<String, Totals> byCustomer = new HashMap<>();
    Map<String, Long> byRegion = new TreeMap<>();
    for (Order order : orders) {
      long cents = price(order);
      byCustomer.merge(
          order.customer(),
          new Totals(order.customer(), cents, 1),
          (a, b) -> new Totals(a.customer(), a.cents() + b.cents(), a.orders() + b.orders()));
      byRegion.merge(order.region(), cents, Long::sum);
    }
    List<Totals> ranked = new ArrayList<>(byCustomer.values());
    ranked.sort(Comparator.comparingLong(Totals::cents).reversed().thenComparing(Totals::customer));
    String report = render(ranked.subList(0, Math.min(50, ranked.size())), byRegion);
    return report.hashCode() + orders.size();
  }

  static List<String> generate(int seed, int count) {
    List<String> lines = new ArrayList<>(count);
    long x = seed * 0x9E3779B97F4A7C15L + 7;
    StringBuilder line = new StringBuilder(64);
    for (int i = 0; i < count; i++) {
      x ^= x << 13;
      x ^= x >>> 7;
      x ^= x << 17;
      long r = x & Long.MAX_VALUE;
      line.setLength(0);
      line.append("c").append(r % 700).append(';');
      line.append(REGIONS[(int) ((r >>> 10) % REGIONS.length)]).append(';');
      line.append(SKUS[(int) ((r >>> 20) % SKUS.length)]).append(';');
      // One line in 50 has a bad quantity, as real input does.
      line.append((r >>> 30) % 50 == 0 ? "x" : Long.toString(1 + (r >>> 36) % 12)).append(';');
      line.append(99 + (r >>> 44) % 2_000);
      lines.add(line.toString());
    }
    return lines;
  }

  static Order parse(String line) {
    String[] fields = line.split(";");
    if (fields.length != 5) {
      return null;
    }
    try {
      return new Order(
          fields[0], fields[1], fields[2], Integer.parseInt(fields[3]), Long.parseLong(fields[4]));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  static boolean valid(Order order) {
    return order.quantity() > 0
        && order.quantity() <= 100
        && order.unitCents() > 0
        && !order.customer().isEmpty()
        && order.sku().chars().allMatch(Character::isLetter);
  }

  static long price(Order order) {
    long gross = order.quantity() * order.unitCents();
    long discount = 0;
    if (order.quantity() >= 10) {
      discount = gross / 10;
    } else if (order.quantity() >= 5) {
      discount = gross / 20;
    }
    long net = gross - discount;
    long taxPermille =
        switch (order.region()) {
          case "north", "east" -> 190;
          case "south" -> 70;
          default -> 160;
        };
    return net + net * taxPermille / 1000;
  }

  static String render(List<Totals> top, Map<String, Long> byRegion) {
    StringBuilder out = new StringBuilder(4096);
    out.append("top customers\n");
    int rank = 1;
    for (Totals t : top) {
      out.append(
          String.format(
              Locale.ROOT,
              "%3d %-6s %10.2f %4d%n",
              rank++,
              t.customer(),
              t.cents() / 100.0,
              t.orders()));
    }
    out.append("regions\n");
    for (Map.Entry<String, Long> e : byRegion.entrySet()) {
      out.append(e.getKey().toUpperCase(Locale.ROOT)).append(' ').append(e.getValue()).append('\n');
    }
    return out.toString();
  }
}
