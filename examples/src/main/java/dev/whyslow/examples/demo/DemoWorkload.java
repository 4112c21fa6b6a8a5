package dev.whyslow.examples.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The demo's service: it merges incoming order batches into a catalogue, skipping orders it has
 * already seen. The duplicate check scans the whole list ({@link #indexOf}), so batches with many
 * repeated customers make it quadratic — the kind of loop Song and Lu found behind many
 * user-reported slowdowns. A {@code good} input has few repeats; a {@code bad} input has many, with
 * a long catalogue.
 *
 * <p>Usage: {@code DemoWorkload good|bad [seed]}. Prints how many orders were merged and the time.
 */
public final class DemoWorkload {
  private DemoWorkload() {}

  record Order(int customer, int item) {}

  public static void main(String[] args) {
    boolean bad = args.length > 0 && args[0].equals("bad");
    long seed = args.length > 1 ? Long.parseLong(args[1]) : 1;
    List<Order> batch = generate(bad, new SplittableRandom(seed));
    long start = System.nanoTime();
    List<Order> merged = merge(batch);
    long elapsedMicros = (System.nanoTime() - start) / 1000;
    System.out.println(
        (bad ? "bad" : "good")
            + " input: merged "
            + merged.size()
            + " of "
            + batch.size()
            + " orders in "
            + elapsedMicros
            + " us");
  }

  static List<Order> generate(boolean bad, SplittableRandom random) {
    int size = bad ? 15_000 + random.nextInt(2_000) : 1_000 + random.nextInt(500);
    int customers = bad ? 6_000 : 50_000;
    List<Order> orders = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      orders.add(new Order(1 + random.nextInt(customers), random.nextInt(10)));
    }
    return orders;
  }

  static List<Order> merge(List<Order> batch) {
    List<Order> merged = new ArrayList<>();
    for (Order order : batch) {
      if (indexOf(merged, order) < 0) {
        merged.add(order);
      }
    }
    return merged;
  }

  /** The slow part: a linear scan per order. A set would make the merge linear. */
  static int indexOf(List<Order> orders, Order wanted) {
    for (int i = 0; i < orders.size(); i++) {
      if (orders.get(i).customer() == wanted.customer()) {
        return i;
      }
    }
    return -1;
  }
}
