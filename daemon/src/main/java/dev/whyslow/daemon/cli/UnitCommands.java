package dev.whyslow.daemon.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The unit commands of {@code whyslow}: {@code units SERVICE}, {@code thresholds SERVICE}, {@code
 * violations SERVICE [--unit-type T] [--from T] [--to T] [--limit N]} and {@code violation ID}.
 */
final class UnitCommands {
  private final CliArgs args;
  private final PrintStream out;
  private final ApiClient api;

  UnitCommands(CliArgs args, PrintStream out, ApiClient api) {
    this.args = args;
    this.out = out;
    this.api = api;
  }

  /** Runs {@code command} if it is a unit command; false if it is not one. */
  boolean execute(String command) {
    switch (command) {
      case "units" -> units();
      case "thresholds" -> thresholds();
      case "violations" -> violations();
      case "violation" -> violation();
      default -> {
        return false;
      }
    }
    return true;
  }

  private JsonNode answer(String body) {
    if (args.json()) {
      out.println(body);
      return null;
    }
    return ApiClient.parse(body);
  }

  private void units() {
    String service = args.expect("SERVICE").get(0);
    args.allowOptions("from", "to");
    Map<String, String> query = new LinkedHashMap<>();
    query.put("service", service);
    args.option("from").ifPresent(v -> query.put("from", v));
    args.option("to").ifPresent(v -> query.put("to", v));
    JsonNode body = answer(api.get("/api/v1/units", query));
    if (body == null) {
      return;
    }
    out.printf(
        "service %s, units that ended from %s to %s%n",
        service, body.get("from").asText(), body.get("to").asText());
    Table t =
        new Table("UNIT TYPE", "UNITS", "MEAN", "P99", "MAX", "VIOLATIONS", "THRESHOLD", "ENTRY");
    for (JsonNode u : body.get("units")) {
      JsonNode threshold = u.path("threshold");
      JsonNode info = u.path("info");
      t.row(
          u.get("unitType").asText(),
          u.get("count").asLong(),
          Table.millis(Math.round(u.get("meanNanos").asDouble())),
          Table.millis(Math.round(u.get("p99Nanos").asDouble())),
          Table.millis(u.get("maxNanos").asLong()),
          u.get("violations").asLong(),
          threshold.isMissingNode() || threshold.isNull()
              ? "none yet"
              : Table.millis(threshold.get("thresholdNanos").asLong()),
          info.isMissingNode() || info.isNull() ? "-" : info.get("entryPoint").asText());
    }
    print(t, "no unit types known for " + service + " yet");
  }

  private void thresholds() {
    String service = args.expect("SERVICE").get(0);
    args.allowOptions();
    JsonNode body = answer(api.get("/api/v1/thresholds", Map.of("service", service)));
    if (body == null) {
      return;
    }
    out.printf(
        "thresholds of %s: %s with k=%s over %s, at least %d units%n",
        service,
        body.get("method").asText(),
        body.get("k").asText(),
        body.get("window").asText(),
        body.get("minCount").asLong());
    Table t = new Table("UNIT TYPE", "THRESHOLD", "FROM UNITS", "COMPUTED");
    for (JsonNode th : body.get("thresholds")) {
      t.row(
          th.get("unitType").asText(),
          Table.millis(th.get("thresholdNanos").asLong()),
          th.get("basedOnCount").asLong(),
          th.get("computedAt").asText());
    }
    print(t, "no thresholds yet: no unit type of " + service + " has enough units");
  }

  private void violations() {
    String service = args.expect("SERVICE").get(0);
    args.allowOptions("unit-type", "from", "to", "limit");
    Map<String, String> query = new LinkedHashMap<>();
    query.put("service", service);
    args.option("unit-type").ifPresent(v -> query.put("unitType", v));
    for (String name : List.of("from", "to", "limit")) {
      args.option(name).ifPresent(v -> query.put(name, v));
    }
    JsonNode body = answer(api.get("/api/v1/violations", query));
    if (body == null) {
      return;
    }
    Table t =
        new Table(
            "ID", "DETECTED", "INSTANCE", "UNIT TYPE", "ELAPSED", "THRESHOLD", "CAUSE", "THREAD");
    for (JsonNode v : body.get("violations")) {
      t.row(
          v.get("id").asText(),
          v.get("detected").asText(),
          v.get("instance").asText(),
          v.get("unitType").asText(),
          Table.millis(v.get("elapsedNanos").asLong()),
          Table.millis(v.get("thresholdNanos").asLong()),
          v.get("cause").asText(),
          v.get("thread").asText());
    }
    print(t, "no violations match");
    if (body.get("count").asInt() == body.get("limit").asInt()) {
      out.println(
          "(newest " + body.get("limit").asInt() + " violations; use --limit or --to for more)");
    }
  }

  private void violation() {
    String id = args.expect("ID").get(0);
    args.allowOptions();
    JsonNode v = answer(api.get("/api/v1/violations/" + ApiClient.segment(id), Map.of()));
    if (v == null) {
      return;
    }
    for (String field :
        List.of(
            "id", "service", "instance", "version", "unitType", "detected", "cause", "thread")) {
      out.printf("%-10s %s%n", field + ":", v.get(field).asText());
    }
    out.printf("%-10s %s%n", "elapsed:", Table.millis(v.get("elapsedNanos").asLong()));
    out.printf("%-10s %s%n", "threshold:", Table.millis(v.get("thresholdNanos").asLong()));
    out.println("stack:");
    for (JsonNode frame : v.get("stack")) {
      out.println("  at " + frame.asText());
    }
  }

  private void print(Table table, String whenEmpty) {
    if (table.size() == 0) {
      out.println(whenEmpty);
    } else {
      table.print(out);
    }
  }
}
