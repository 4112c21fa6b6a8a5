package dev.whyslow.bench.latency;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A load generator JVM on command ({@code examples}' {@code LoadSegments}): warm-ups and measured
 * segments of a fixed-rate load, each started by one call and awaited by another, so that two of
 * them can load two shops at the same time ({@link SideBySideLatencyBenchmark}) or one can load two
 * shops in turn ({@link LockstepLatencyBenchmark}).
 */
final class SegmentLoad implements AutoCloseable {
  private final Process process;
  private final BufferedReader output;
  private final Writer input;
  private final String idleRate;

  private ShopProcess measured;
  private double cpuBefore;
  private Map<String, Double> threadsBefore;

  private SegmentLoad(Process process, String idleRate) {
    this.idleRate = idleRate;
    this.process = process;
    this.output =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    this.input = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
  }

  /**
   * Starts a load generator JVM; {@code idleRate}, when not null, is a trickle of requests per
   * second to the shop whose turn it is not, unmeasured.
   */
  static SegmentLoad start(String java, Path examplesJar, String idleRate) throws IOException {
    return new SegmentLoad(
        new ProcessBuilder(
                java,
                "-Xmx256m",
                "-cp",
                examplesJar.toString(),
                "dev.whyslow.examples.shop.LoadSegments")
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start(),
        idleRate);
  }

  /** Warms {@code shop} up under the load, and waits for it. */
  void warmup(ShopProcess shop, ShopProcess idle, String rate, Duration length) throws IOException {
    startWarmup(shop, idle, rate, length, 1000);
    awaitWarmup();
  }

  /**
   * Starts a warm-up of {@code shop} with the requests drawn from {@code seed}; {@code idle} (or
   * null) gets the trickle, if any.
   */
  void startWarmup(ShopProcess shop, ShopProcess idle, String rate, Duration length, int seed)
      throws IOException {
    send(
        "warmup "
            + shop.url()
            + " "
            + rate
            + " "
            + length.toSeconds()
            + " "
            + seed
            + trickle(idle));
  }

  void awaitWarmup() throws IOException {
    expect("warmed");
  }

  /** Measures one segment of {@code shop} and adds it to the shop's figures. */
  void measure(ShopProcess shop, ShopProcess idle, String rate, Duration length, int seed)
      throws IOException {
    startMeasure(shop, idle, rate, length, seed);
    awaitMeasure();
  }

  /** Starts a measured segment of {@code shop}: its CPU is read now and when it ends. */
  void startMeasure(ShopProcess shop, ShopProcess idle, String rate, Duration length, int seed)
      throws IOException {
    measured = shop;
    cpuBefore = shop.cpuNow();
    threadsBefore = ThreadCpu.of(shop.process.pid());
    send(
        "measure "
            + shop.url()
            + " "
            + rate
            + " "
            + length.toSeconds()
            + " "
            + seed
            + trickle(idle));
  }

  /** Waits for the segment {@link #startMeasure} started and adds it to its shop's figures. */
  void awaitMeasure() throws IOException {
    ShopProcess shop = measured;
    String line = expect("segment ");
    shop.cpuSeconds += shop.cpuNow() - cpuBefore;
    ThreadCpu.minus(ThreadCpu.of(shop.process.pid()), threadsBefore)
        .forEach((kind, spent) -> shop.cpuByThreads.merge(kind, spent, Double::sum));
    String[] fields = line.split(" ");
    shop.requests += Long.parseLong(fields[1].substring("sent=".length()));
    shop.errors += Long.parseLong(fields[2].substring("errors=".length()));
    String values = fields[3].substring("latencies_us=".length());
    shop.latenciesUs.add(
        values.isEmpty()
            ? new long[0]
            : Arrays.stream(values.split(",")).mapToLong(Long::parseLong).toArray());
  }

  private String trickle(ShopProcess idle) {
    return idleRate == null || idle == null ? "" : " " + idle.url() + " " + idleRate;
  }

  private void send(String command) throws IOException {
    input.write(command + "\n");
    input.flush();
  }

  private String expect(String prefix) throws IOException {
    String line = output.readLine();
    if (line == null || !line.startsWith(prefix)) {
      throw new IOException("load generator said '" + line + "', expected " + prefix.trim());
    }
    return line;
  }

  @Override
  public void close() throws IOException {
    input.close();
    try {
      if (!process.waitFor(1, TimeUnit.MINUTES)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
