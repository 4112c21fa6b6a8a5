package dev.whyslow.examples.shop;

import java.util.Locale;
import java.util.Map;

/**
 * The summary of one load run: the settings, then the stats of each kind sent and of all requests,
 * as a table for people ({@link #toText()}) or JSON for scripts and the benchmark ({@link
 * #toJson()}).
 */
public record LoadReport(
    LoadOptions options, Map<RequestKind, LatencyStats> kinds, LatencyStats overall) {

  public LoadReport {
    kinds = Map.copyOf(kinds);
  }

  public String toText() {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "%s at %.1f/s for %ds after %ds warm-up (latency from the intended send time)%n",
            options.url(),
            options.rate(),
            options.duration().toSeconds(),
            options.warmup().toSeconds()));
    out.append(
        String.format(
            Locale.ROOT,
            "%-9s %8s %9s %7s %9s %9s %9s %9s %9s%n",
            "kind",
            "sent",
            "completed",
            "errors",
            "p50 ms",
            "p90 ms",
            "p99 ms",
            "p99.9 ms",
            "max ms"));
    for (RequestKind kind : RequestKind.values()) {
      if (kinds.containsKey(kind)) {
        row(out, kind.spelling(), kinds.get(kind));
      }
    }
    row(out, "all", overall);
    return out.toString();
  }

  private static void row(StringBuilder out, String name, LatencyStats s) {
    out.append(
        String.format(
            Locale.ROOT,
            "%-9s %8d %9d %7d %9.2f %9.2f %9.2f %9.2f %9.2f%n",
            name,
            s.sent(),
            s.completed(),
            s.errors(),
            s.p50Ms(),
            s.p90Ms(),
            s.p99Ms(),
            s.p999Ms(),
            s.maxMs()));
  }

  public String toJson() {
    JsonOut json =
        new JsonOut()
            .begin()
            .field("url", options.url().toString())
            .field("rate", options.rate())
            .field("durationSeconds", options.duration().toMillis() / 1000.0)
            .field("warmupSeconds", options.warmup().toMillis() / 1000.0);
    stats(json.object("overall"), overall);
    json.object("kinds");
    for (RequestKind kind : RequestKind.values()) {
      if (kinds.containsKey(kind)) {
        stats(json.object(kind.spelling()), kinds.get(kind));
      }
    }
    return json.end().end().toString();
  }

  private static void stats(JsonOut json, LatencyStats s) {
    json.field("sent", s.sent())
        .field("completed", s.completed())
        .field("errors", s.errors())
        .field("p50Ms", s.p50Ms())
        .field("p90Ms", s.p90Ms())
        .field("p99Ms", s.p99Ms())
        .field("p999Ms", s.p999Ms())
        .field("maxMs", s.maxMs())
        .end();
  }
}
