package dev.whyslow.examples.shop;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * An open-model load generator for the shop: requests leave on a fixed schedule ({@link
 * ArrivalSchedule}) whatever the responses do, through a bounded pool of {@code --connections}
 * workers, and each latency is measured from the request's intended send time, so queueing behind a
 * slow server is counted (no coordinated omission). Requests in the warm-up are sent but not
 * measured.
 *
 * <p>Usage: {@code LoadGenerator --url http://127.0.0.1:8080 --rate 100 --duration 60s --warmup 20s
 * [--mix search=50,product=30,cart=15,checkout=5] [--bug-share 0.05] [--connections 8] [--json]}.
 * Prints a table of sent, completed, errors, p50, p90, p99, p99.9 and max per kind and overall.
 */
public final class LoadGenerator {
  private LoadGenerator() {}

  /** Runs the load and returns its summary; blocks for warm-up plus duration plus the drain. */
  public static LoadReport run(LoadOptions options) throws IOException, InterruptedException {
    return run(options, new LatencyRecorder());
  }

  /** As {@link #run(LoadOptions)}, measuring into {@code recorder}, which keeps every latency. */
  static LoadReport run(LoadOptions options, LatencyRecorder recorder)
      throws IOException, InterruptedException {
    HttpClient client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(options.timeout())
            .build();
    if (!Double.isNaN(options.bugShare())) {
      setBugShare(client, options);
    }
    ExecutorService workers =
        Executors.newFixedThreadPool(
            options.connections(),
            r -> {
              Thread t = new Thread(r, "load-worker");
              t.setDaemon(true);
              return t;
            });
    SplittableRandom random = new SplittableRandom(options.seed());
    // Start a little ahead so the first requests are not already late.
    ArrivalSchedule schedule = ArrivalSchedule.of(System.nanoTime() + 10_000_000L, options.rate());
    long warmupRequests = schedule.count(options.warmup());
    long total = warmupRequests + schedule.count(options.duration());
    try {
      for (long i = 0; i < total; i++) {
        long intended = schedule.intendedNanos(i);
        for (long wait; (wait = intended - System.nanoTime()) > 0; ) {
          LockSupport.parkNanos(wait);
        }
        RequestKind kind = options.mix().pick(random);
        URI uri = URI.create(options.url() + kind.path(random, options.products()));
        boolean measured = i >= warmupRequests;
        if (measured) {
          recorder.sent(kind);
        }
        workers.execute(
            () -> send(client, options, uri, kind, intended, measured ? recorder : null));
      }
    } finally {
      workers.shutdown();
    }
    // Every request has a timeout, so the pool drains within the queue's worth of timeouts at
    // worst.
    if (!workers.awaitTermination(
        options.timeout().toMillis() * 2 + 60_000, TimeUnit.MILLISECONDS)) {
      workers.shutdownNow();
    }
    Map<RequestKind, LatencyStats> kinds = new EnumMap<>(RequestKind.class);
    for (RequestKind kind : RequestKind.values()) {
      if (options.mix().weights().getOrDefault(kind, 0) > 0) {
        kinds.put(kind, recorder.stats(kind));
      }
    }
    return new LoadReport(options, kinds, recorder.overall());
  }

  private static void send(
      HttpClient client,
      LoadOptions options,
      URI uri,
      RequestKind kind,
      long intendedNanos,
      LatencyRecorder recorder) {
    HttpRequest request = HttpRequest.newBuilder(uri).timeout(options.timeout()).GET().build();
    try {
      HttpResponse<Void> response = client.send(request, HttpResponse.BodyHandlers.discarding());
      long latency = System.nanoTime() - intendedNanos;
      if (recorder != null) {
        recorder.completed(kind, latency, response.statusCode() / 100 == 2);
      }
    } catch (IOException e) {
      if (recorder != null) {
        recorder.failed(kind);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void setBugShare(HttpClient client, LoadOptions options)
      throws IOException, InterruptedException {
    URI uri = URI.create(options.url() + "/admin/bug?share=" + options.bugShare());
    HttpResponse<String> response;
    try {
      response =
          client.send(
              HttpRequest.newBuilder(uri)
                  .timeout(options.timeout())
                  .POST(HttpRequest.BodyPublishers.noBody())
                  .build(),
              HttpResponse.BodyHandlers.ofString());
    } catch (ConnectException e) {
      throw new IOException(
          "cannot reach the shop at " + options.url() + " to set --bug-share: " + e, e);
    }
    if (response.statusCode() != 200) {
      throw new IOException(
          "the shop refused --bug-share "
              + options.bugShare()
              + " ("
              + response.statusCode()
              + "): "
              + response.body());
    }
  }

  public static void main(String[] args) throws InterruptedException {
    LoadOptions options;
    try {
      options = LoadOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.println(
          "usage: LoadGenerator --url http://127.0.0.1:8080 --rate 100 --duration 60s --warmup 20s"
              + " [--mix "
              + RequestMix.DEFAULT
              + "] [--bug-share 0.05] [--connections 8] [--timeout 10s]"
              + " [--products 30000] [--seed 1] [--json]");
      System.exit(2);
      return;
    }
    try {
      LoadReport report = run(options);
      System.out.print(options.json() ? report.toJson() + System.lineSeparator() : report.toText());
    } catch (IOException e) {
      System.err.println("LoadGenerator: " + e.getMessage());
      System.exit(1);
    }
  }
}
