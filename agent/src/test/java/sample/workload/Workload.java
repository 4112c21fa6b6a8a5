package sample.workload;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A deterministic program for the agent's integration tests: collections, streams, lambdas,
 * exceptions caught and thrown, threads. Its output must be byte for byte the same with and without
 * the agent. With the argument {@code throw} it ends with an uncaught exception.
 */
public final class Workload {
  private Workload() {}

  public static void main(String[] args) throws Exception {
    List<Integer> numbers = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      numbers.add((i * 7919) % 1009);
    }
    Collections.sort(numbers);
    System.out.println("sorted head=" + numbers.subList(0, 5) + " tail=" + numbers.get(1999));

    Map<Integer, Integer> histogram = new HashMap<>();
    for (int n : numbers) {
      histogram.merge(n % 10, 1, Integer::sum);
    }
    System.out.println("histogram=" + new TreeMap<>(histogram));

    String joined =
        IntStream.range(0, 50)
            .filter(i -> i % 3 == 0)
            .mapToObj(Integer::toString)
            .collect(Collectors.joining(","));
    System.out.println("stream=" + joined);

    Deque<String> deque = new ArrayDeque<>(List.of("a", "b", "c"));
    LinkedList<String> linked = new LinkedList<>();
    while (!deque.isEmpty()) {
      linked.addFirst(deque.pollLast() + linked.size());
    }
    for (Iterator<String> it = linked.iterator(); it.hasNext(); ) {
      if (it.next().startsWith("b")) {
        it.remove();
      }
    }
    System.out.println("linked=" + linked);

    for (String s : new String[] {"12", "x", "-3", ""}) {
      try {
        System.out.println("parsed " + parse(s));
      } catch (NumberFormatException e) {
        System.out.println("caught " + e.getClass().getName() + ": " + e.getMessage());
      }
    }
    try {
      Object o = Optional.empty().orElseThrow();
      System.out.println("unexpected " + o);
    } catch (RuntimeException e) {
      System.out.println("caught " + e.getClass().getName() + ": " + e.getMessage());
    }
    System.out.println("fib(25)=" + fib(25));
    System.out.println("sign=" + Arrays.toString(new int[] {sign(-4), sign(0), sign(9)}));
    System.out.println("format=" + String.format("%08.3f|%-5s|%x", Math.PI, "ok", 255));

    ExecutorService pool = Executors.newFixedThreadPool(2);
    List<Future<Long>> futures = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      final int seed = t;
      futures.add(pool.submit(() -> work(seed)));
    }
    long total = 0;
    for (Future<Long> f : futures) {
      total += f.get();
    }
    pool.shutdown();
    pool.awaitTermination(30, TimeUnit.SECONDS);
    System.out.println("threads total=" + total);

    if (args.length > 0 && args[0].equals("throw")) {
      throw new IllegalStateException("workload ends with an uncaught exception");
    }
    System.out.println("done");
  }

  static int parse(String s) {
    if (s.isEmpty()) {
      throw new NumberFormatException("empty string");
    }
    return Integer.parseInt(s);
  }

  static long fib(int n) {
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
  }

  static int sign(int x) {
    if (x > 0) {
      return 1;
    }
    return x < 0 ? -1 : 0;
  }

  static long work(int seed) {
    long acc = seed;
    Map<Long, Long> seen = new HashMap<>();
    for (int i = 0; i < 20_000; i++) {
      acc = (acc * 6364136223846793005L + 1442695040888963407L) >>> 1;
      seen.merge(acc % 97, 1L, Long::sum);
    }
    return seen.values().stream().mapToLong(Long::longValue).max().orElse(-1);
  }
}
