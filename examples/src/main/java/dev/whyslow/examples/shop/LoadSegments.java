package dev.whyslow.examples.shop;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The load generator on command, for a benchmark that alternates two shops segment by segment
 * (bench's {@code LockstepLatencyBenchmark}): one JVM sends every segment, so both shops get the
 * same client, warmed up once, and the same requests in the same order.
 *
 * <p>Each line on standard input is {@code <warmup|measure> <url> <rate> <seconds> <seed> [<idle
 * url> <idle rate>]}: a fixed-rate open-model load ({@link LoadGenerator}, mix {@link
 * RequestMix#DEFAULT}) on the shop at {@code url}, and, if given, a trickle at {@code idle rate} on
 * the shop at {@code idle url} for as long, whose latencies are not kept: a service in production
 * is never left without requests for the length of a segment, and one that is compiles some of its
 * code again when they come back. A warm-up sets the shop's bug share to 0 first and prints {@code
 * warmed}; a measured segment prints {@code segment sent=<n> errors=<n> latencies_us=<every
 * latency, comma-separated>}, each from its request's intended send time. The end of input exits.
 */
public final class LoadSegments {
  private LoadSegments() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    run(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)), System.out);
  }

  /** Carries out every line of {@code commands}, answering on {@code out}. */
  static void run(BufferedReader commands, PrintStream out)
      throws IOException, InterruptedException {
    for (String line; (line = commands.readLine()) != null; ) {
      String[] w = line.trim().split("\\s+");
      if ((w.length != 5 && w.length != 7) || !(w[0].equals("warmup") || w[0].equals("measure"))) {
        throw new IllegalArgumentException(
            "expected '<warmup|measure> <url> <rate> <seconds> <seed> [<idle url> <idle rate>]',"
                + " got: "
                + line);
      }
      boolean warmup = w[0].equals("warmup");
      Duration length = Duration.ofSeconds(Long.parseLong(w[3]));
      long seed = Long.parseLong(w[4]);
      CompletableFuture<LoadReport> trickle =
          w.length == 7
              ? trickle(options(w[5], Double.parseDouble(w[6]), length, Double.NaN, ~seed))
              : CompletableFuture.completedFuture(null);
      LatencyRecorder recorder = new LatencyRecorder();
      LoadReport report =
          LoadGenerator.run(
              options(w[1], Double.parseDouble(w[2]), length, warmup ? 0.0 : Double.NaN, seed),
              recorder);
      awaitTrickle(trickle);
      if (warmup) {
        out.println("warmed");
      } else {
        StringBuilder segment =
            new StringBuilder("segment sent=")
                .append(report.overall().sent())
                .append(" errors=")
                .append(report.overall().errors())
                .append(" latencies_us=");
        long[] all = recorder.allNanos();
        for (int i = 0; i < all.length; i++) {
          segment.append(i == 0 ? "" : ",").append(all[i] / 1000);
        }
        out.println(segment);
      }
      out.flush();
    }
  }

  private static LoadOptions options(
      String url, double rate, Duration length, double bugShare, long seed) {
    return new LoadOptions(
        URI.create(url),
        rate,
        length,
        Duration.ZERO,
        RequestMix.parse(RequestMix.DEFAULT),
        bugShare,
        false,
        8,
        Duration.ofSeconds(10),
        Catalog.DEFAULT_SIZE,
        seed);
  }

  private static CompletableFuture<LoadReport> trickle(LoadOptions options) {
    CompletableFuture<LoadReport> done = new CompletableFuture<>();
    Thread thread =
        new Thread(
            () -> {
              try {
                done.complete(LoadGenerator.run(options));
              } catch (IOException | RuntimeException e) {
                done.completeExceptionally(e);
              } catch (InterruptedException e) {
                done.completeExceptionally(e);
                Thread.currentThread().interrupt();
              }
            },
            "load-trickle");
    thread.setDaemon(true);
    thread.start();
    return done;
  }

  /** A failed trickle fails the segment: the idle shop was not kept busy as asked. */
  private static void awaitTrickle(CompletableFuture<LoadReport> trickle)
      throws IOException, InterruptedException {
    LoadReport report;
    try {
      report = trickle.get();
    } catch (ExecutionException e) {
      throw new IOException("the trickle to the idle shop failed", e.getCause());
    }
    if (report != null && report.overall().errors() > 0) {
      throw new IOException(
          "the trickle to "
              + report.options().url()
              + " had "
              + report.overall().errors()
              + " errors in "
              + report.overall().sent()
              + " requests");
    }
  }
}
