package dev.whyslow.bench.latency;

import dev.whyslow.bench.AgentOption;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * One example shop JVM, with or without an agent, and what its measured segments gave: every
 * request's latency, the requests and errors, and the shop's CPU over the segments, in all and by
 * kind of thread ({@link ThreadCpu}).
 */
final class ShopProcess implements AutoCloseable {
  final Process process;
  final int port;
  final List<long[]> latenciesUs = new ArrayList<>();
  long requests;
  long errors;
  double cpuSeconds;
  final Map<String, Double> cpuByThreads = new TreeMap<>();

  private ShopProcess(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /** Starts a shop with four request threads on a free port; {@code agentJar} null for none. */
  static ShopProcess start(
      String java, Path examplesJar, CpuPinning pinning, Path agentJar, String agentArgs)
      throws IOException {
    List<String> command = new ArrayList<>(pinning.shopPrefix());
    command.addAll(List.of(java, "-Xms512m", "-Xmx512m"));
    if (agentJar != null) {
      command.add(AgentOption.of(agentJar, agentArgs));
    }
    command.addAll(
        List.of(
            "-cp",
            examplesJar.toString(),
            "dev.whyslow.examples.shop.ShopService",
            "--port",
            "0",
            "--threads",
            "4"));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      return new ShopProcess(process, ServiceLatencyBenchmark.awaitPort(process));
    } catch (IOException | RuntimeException e) {
      process.destroyForcibly();
      throw e;
    }
  }

  String url() {
    return "http://127.0.0.1:" + port;
  }

  /** The shop's CPU time so far, in seconds. */
  double cpuNow() {
    return process
            .toHandle()
            .info()
            .totalCpuDuration()
            .map(Duration::toNanos)
            .orElseThrow(() -> new IllegalStateException("no CPU time for the shop"))
        / 1e9;
  }

  double percentileMs(double q) {
    long[] all = latenciesUs.stream().flatMapToLong(Arrays::stream).sorted().toArray();
    int rank = (int) Math.ceil(q * all.length);
    return all[Math.max(0, rank - 1)] / 1e3;
  }

  double cpuPerRequest() {
    return cpuSeconds / requests;
  }

  double cpuPerRequest(String threadKind) {
    return cpuByThreads.getOrDefault(threadKind, 0.0) / requests;
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
