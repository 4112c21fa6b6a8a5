package dev.whyslow.examples.shop;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The load generator on command, for a benchmark that alternates two shops segment by segment
 * (bench's {@code LockstepLatencyBenchmark}): one JVM sends every segment, so both shops get the
 * same client, warmed up once, and the same requests in the same order.
 *
 * <p>Each line on standard input is {@code <warmup|measure> <url> <rate> <seconds> <seed>}: a
 * fixed-rate open-model load ({@link LoadGenerator}, mix {@link RequestMix#DEFAULT}) on the shop at
 * {@code url}. A warm-up sets the shop's bug share to 0 first and prints {@code warmed}; a measured
 * segment prints {@code segment sent=<n> errors=<n> latencies_us=<every latency, comma-separated>},
 * each from its request's intended send time. The end of input exits.
 */
public final class LoadSegments {
  private LoadSegments() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    PrintStream out = System.out;
    BufferedReader commands =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line; (line = commands.readLine()) != null; ) {
      String[] w = line.trim().split("\\s+");
      if (w.length != 5 || !(w[0].equals("warmup") || w[0].equals("measure"))) {
        throw new IllegalArgumentException(
            "expected '<warmup|measure> <url> <rate> <seconds> <seed>', got: " + line);
      }
      boolean warmup = w[0].equals("warmup");
      LoadOptions options =
          new LoadOptions(
              URI.create(w[1]),
              Double.parseDouble(w[2]),
              Duration.ofSeconds(Long.parseLong(w[3])),
              Duration.ZERO,
              RequestMix.parse(RequestMix.DEFAULT),
              warmup ? 0.0 : Double.NaN,
              false,
              8,
              Duration.ofSeconds(10),
              Catalog.DEFAULT_SIZE,
              Long.parseLong(w[4]));
      LatencyRecorder recorder = new LatencyRecorder();
      LoadReport report = LoadGenerator.run(options, recorder);
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
}
