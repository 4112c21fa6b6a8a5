package dev.whyslow.bench.latency;

import static dev.whyslow.bench.MedianInterval.median;

import dev.whyslow.bench.MedianInterval;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What pairs of shops, one with the agent and one without, gave: each pair's p99, p50 and CPU per
 * request with over without, printed as the pairs end, and the medians of those ratios with their
 * 95 % intervals at the end.
 */
final class PairFigures {
  private final List<Double> p99 = new ArrayList<>();
  private final List<Double> p50 = new ArrayList<>();
  private final List<Double> cpu = new ArrayList<>();
  private final List<Double> requestThreads = new ArrayList<>();

  /** Adds the pair and prints its figures. */
  void add(ShopProcess agent, ShopProcess none) {
    double p99Ratio = agent.percentileMs(0.99) / none.percentileMs(0.99);
    double p50Ratio = agent.percentileMs(0.50) / none.percentileMs(0.50);
    double cpuRatio = agent.cpuPerRequest() / none.cpuPerRequest();
    p99.add(p99Ratio);
    p50.add(p50Ratio);
    cpu.add(cpuRatio);
    requestThreads.add(
        agent.cpuPerRequest(ThreadCpu.REQUESTS) / none.cpuPerRequest(ThreadCpu.REQUESTS));
    System.out.printf(
        Locale.ROOT,
        "pair %d  p99 %.2f ms with, %.2f ms without (%+.2f %%)  p50 %.2f / %.2f ms (%+.2f %%)"
            + "  shop CPU per request %.1f / %.1f us (%+.2f %%)  errors %d / %d%n",
        p99.size(),
        agent.percentileMs(0.99),
        none.percentileMs(0.99),
        (p99Ratio - 1) * 100,
        agent.percentileMs(0.50),
        none.percentileMs(0.50),
        (p50Ratio - 1) * 100,
        agent.cpuPerRequest() * 1e6,
        none.cpuPerRequest() * 1e6,
        (cpuRatio - 1) * 100,
        agent.errors,
        none.errors);
    System.out.printf(
        Locale.ROOT,
        "        CPU per request by thread, us, with / without: %s%n",
        byThreads(agent, none));
  }

  /** Prints the medians of the pair ratios. */
  void printSummary() {
    System.out.println();
    summary("p99", p99);
    summary("p50", p50);
    summary("shop CPU per request", cpu);
    summary("request threads' CPU per request", requestThreads);
  }

  /** Each kind of thread's CPU per request in both shops, {@code kind with/without}. */
  private static String byThreads(ShopProcess agent, ShopProcess none) {
    StringBuilder out = new StringBuilder();
    Map<String, Double> kinds = new TreeMap<>(agent.cpuByThreads);
    none.cpuByThreads.keySet().forEach(k -> kinds.putIfAbsent(k, 0.0));
    for (String kind : kinds.keySet()) {
      out.append(
          String.format(
              Locale.ROOT,
              "%s %.1f/%.1f  ",
              kind,
              agent.cpuByThreads.getOrDefault(kind, 0.0) / agent.requests * 1e6,
              none.cpuByThreads.getOrDefault(kind, 0.0) / none.requests * 1e6));
    }
    return out.toString().trim();
  }

  private static void summary(String what, List<Double> ratios) {
    double median = median(ratios);
    System.out.printf(
        Locale.ROOT,
        "%s: median of pair ratios %.4f (%+.2f %%), 95 %% interval %s%n",
        what,
        median,
        (median - 1) * 100,
        MedianInterval.of(ratios, 0.95).asOverhead(ratios.size()));
  }
}
