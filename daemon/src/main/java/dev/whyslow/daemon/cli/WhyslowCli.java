package dev.whyslow.daemon.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.whyslow.protocol.Label;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code whyslow}: whyslowd's HTTP API for people. Plain aligned tables by default, the server's
 * JSON with {@code --json}. Exit codes: 0 done, 1 the server refused or could not be reached (its
 * message is printed), 2 the command line is wrong (usage is printed).
 */
public final class WhyslowCli {
  private final PrintStream out;
  private final ApiClient api;
  private final CliArgs args;

  private WhyslowCli(CliArgs args, PrintStream out) {
    this.args = args;
    this.out = out;
    this.api = new ApiClient(args.server(), args.token());
  }

  public static void main(String[] argv) {
    System.exit(run(Arrays.asList(argv), System.out, System.err, System.getenv()));
  }

  /** Runs one command; returns the exit code. */
  public static int run(
      List<String> argv, PrintStream out, PrintStream err, Map<String, String> env) {
    try {
      CliArgs args = CliArgs.parse(argv, env);
      if (args.command().equals("help")) {
        out.println(CliArgs.USAGE);
        return 0;
      }
      new WhyslowCli(args, out).execute();
      return 0;
    } catch (UsageException e) {
      err.println("whyslow: " + e.getMessage());
      err.println(CliArgs.USAGE);
      return 2;
    } catch (ServerException e) {
      err.println("whyslow: " + e.getMessage());
      return 1;
    }
  }

  private void execute() {
    switch (args.command()) {
      case "services" -> services();
      case "sites" -> sites();
      case "runs" -> runs();
      case "diagnose" -> diagnose();
      case "run" -> run();
      case "label" -> label();
      case "agents" -> agents();
      case "sampling-rate" -> samplingRate();
      case "kill-switch" -> killSwitch();
      default -> {
        if (!new UnitCommands(args, out, api).execute(args.command())) {
          throw new UsageException("unknown command '" + args.command() + "'");
        }
      }
    }
  }

  /** Prints raw JSON with --json, else hands the parsed body to the table printer. */
  private JsonNode answer(String body) {
    if (args.json()) {
      out.println(body);
      return null;
    }
    return ApiClient.parse(body);
  }

  private void services() {
    args.expect();
    args.allowOptions();
    JsonNode body = answer(api.get("/api/v1/services", Map.of()));
    if (body == null) {
      return;
    }
    Table t = new Table("SERVICE", "INSTANCES", "VERSIONS", "SITES", "RUNS", "LAST RUN", "AGENTS");
    for (JsonNode s : body.get("services")) {
      t.row(
          s.get("service").asText(),
          Table.list(s.get("instances")),
          Table.list(s.get("versions")),
          s.get("siteCount").asLong(),
          s.get("runCount").asLong(),
          s.path("lastRunStart").asText("-"),
          s.get("connectedAgents").asInt());
    }
    print(t, "no services yet: no agent has connected");
  }

  private void sites() {
    String service = args.expect("SERVICE").get(0);
    args.allowOptions();
    JsonNode body =
        answer(api.get("/api/v1/services/" + ApiClient.segment(service) + "/sites", Map.of()));
    if (body == null) {
      return;
    }
    Table t = new Table("KEY", "KIND", "LOCATION", "LOOP", "PREDICATES");
    for (JsonNode s : body.get("sites")) {
      int loop = s.get("loopId").asInt();
      t.row(
          s.get("key").asText(),
          s.get("kind").asText(),
          s.get("location").asText(),
          loop < 0 ? "-" : loop,
          Table.list(s.get("predicates")));
    }
    print(t, "service " + service + " has no sites yet");
  }

  private void runs() {
    args.expect();
    args.allowOptions(
        "service", "from", "to", "label", "limit", "instance", "version", "unit-type");
    Map<String, String> query = new LinkedHashMap<>();
    for (String name : List.of("service", "from", "to", "label", "limit", "instance", "version")) {
      args.option(name).ifPresent(v -> query.put(name, v));
    }
    args.option("unit-type").ifPresent(v -> query.put("unitType", v));
    JsonNode body = answer(api.get("/api/v1/runs", query));
    if (body == null) {
      return;
    }
    Table t =
        new Table(
            "ID",
            "START",
            "INSTANCE",
            "VERSION",
            "KIND",
            "UNIT TYPE",
            "DURATION",
            "LABEL",
            "SITES");
    for (JsonNode r : body.get("runs")) {
      t.row(
          r.get("id").asText(),
          r.get("start").asText(),
          r.get("instance").asText(),
          r.get("version").asText(),
          r.get("kind").asText(),
          r.get("unitType").asText().isEmpty() ? "-" : r.get("unitType").asText(),
          Table.millis(r.get("durationNanos").asLong()),
          r.get("label").asText(),
          r.get("siteCount").asInt());
    }
    print(t, "no runs match");
    if (body.get("count").asInt() == body.get("limit").asInt()) {
      out.println("(first " + body.get("limit").asInt() + " runs; use --limit or --from for more)");
    }
  }

  private void diagnose() {
    String service = args.expect("SERVICE").get(0);
    args.allowOptions(
        "from", "to", "model", "predicates", "top", "instance", "version", "unit-type");
    Map<String, String> query = new LinkedHashMap<>();
    query.put("service", service);
    for (String name : List.of("from", "to", "model", "predicates", "top", "instance", "version")) {
      args.option(name).ifPresent(v -> query.put(name, v));
    }
    args.option("unit-type").ifPresent(v -> query.put("unitType", v));
    JsonNode r = answer(api.get("/api/v1/diagnosis", query));
    if (r == null) {
      return;
    }
    out.printf(
        "service %s: %d failing and %d successful runs (%d do-not-care left out), sampling %s%n",
        r.get("service").asText(),
        r.get("failingRuns").asInt(),
        r.get("successRuns").asInt(),
        r.get("ignoredRuns").asInt(),
        Table.list(r.get("samplingRates")));
    out.printf(
        "model %s over %s predicates (%d considered, %d ranked)%n",
        r.get("model").asText(),
        r.get("filter").asText(),
        r.get("predicatesConsidered").asInt(),
        r.get("rankedPredicates").asInt());
    for (JsonNode reason : r.get("insufficient")) {
      out.println("not enough data: " + reason.asText());
    }
    boolean cbi = r.get("model").asText().equals("cbi");
    Table t =
        cbi
            ? new Table("RANK", "PREDICTOR", "IMPORTANCE", "INCREASE", "F(TRUE)", "S(TRUE)", "FIX")
            : new Table("RANK", "PREDICTOR", "P(W|BUG)", "P(BUG|W)", "F(TRUE)", "S(TRUE)", "FIX");
    for (JsonNode p : r.get("predictors")) {
      JsonNode scores = p.get("scores");
      JsonNode counts = p.get("counts");
      String fix = Table.words(p.get("fixHint").get("strategy").asText());
      if (cbi) {
        JsonNode initial = scores.get("initial");
        t.row(
            p.get("rank").asInt(),
            p.get("description").asText(),
            String.format("%.3f", initial.get("importance").asDouble()),
            String.format("%.3f", initial.get("increase").asDouble()),
            counts.get("failingTrue").asLong(),
            counts.get("successTrue").asLong(),
            fix);
      } else {
        t.row(
            p.get("rank").asInt(),
            p.get("description").asText(),
            String.format("%.4f", scores.get("wordGivenBug").asDouble()),
            String.format("%.3f", scores.get("bugGivenWord").asDouble()),
            counts.get("failingTrue").asLong(),
            counts.get("successTrue").asLong(),
            fix);
      }
    }
    print(t, r.get("insufficient").isEmpty() ? "no predicate explains the failing runs" : "");
    for (JsonNode note : r.get("notes")) {
      out.println("note: " + note.asText());
    }
  }

  private void run() {
    String id = args.expect("ID").get(0);
    args.allowOptions();
    JsonNode r = answer(api.get("/api/v1/runs/" + ApiClient.segment(id), Map.of()));
    if (r == null) {
      return;
    }
    for (String field : List.of("id", "service", "instance", "version", "kind", "start", "label")) {
      out.printf("%-10s %s%n", field + ":", r.get(field).asText());
    }
    out.printf("%-10s %s%n", "unit type:", r.get("unitType").asText());
    out.printf("%-10s %s%n", "duration:", Table.millis(r.get("durationNanos").asLong()));
    out.printf("%-10s %s%n", "sampling:", r.get("samplingRate").asText());
    Table t = new Table("SITE", "OBSERVED", "TRUE COUNTS");
    for (JsonNode s : r.get("sites")) {
      t.row(s.get("site").asText(), s.get("observed").asLong(), Table.list(s.get("trueCounts")));
    }
    out.println();
    print(t, "no sites sampled in this run");
  }

  private void label() {
    String text = args.expect("LABEL").get(0);
    Label label;
    try {
      label = Label.parse(text);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("label", label.spelling());
    if (args.option("runs").isPresent()) {
      args.allowOptions("runs");
      body.put(
          "runIds", Arrays.stream(args.option("runs").get().split(",")).map(String::trim).toList());
    } else if (args.option("service").isPresent()) {
      args.allowOptions("service", "from", "to", "instance", "version", "unit-type");
      body.put("service", args.option("service").get());
      for (String name : List.of("from", "to", "instance", "version")) {
        args.option(name).ifPresent(v -> body.put(name, v));
      }
      args.option("unit-type").ifPresent(v -> body.put("unitType", v));
    } else {
      throw new UsageException("label needs --runs ID,ID or --service S");
    }
    JsonNode answer = answer(api.post("/api/v1/labels", body));
    if (answer != null) {
      out.println(
          "relabelled " + answer.get("relabelled").asLong() + " runs as " + label.spelling());
    }
  }

  private void agents() {
    args.expect();
    args.allowOptions("service");
    Map<String, String> query = new LinkedHashMap<>();
    args.option("service").ifPresent(v -> query.put("service", v));
    JsonNode body = answer(api.get("/api/v1/agents", query));
    if (body == null) {
      return;
    }
    Table t =
        new Table(
            "SERVICE", "INSTANCE", "VERSION", "AGENT", "REMOTE", "CONNECTED", "SAMPLES", "DROPPED");
    for (JsonNode a : body.get("agents")) {
      JsonNode stats = a.path("stats");
      t.row(
          a.get("service").asText(),
          a.get("instance").asText(),
          a.get("version").asText(),
          a.get("agentVersion").asText(),
          a.get("remoteAddress").asText(),
          a.get("connectedAt").asText(),
          stats.isMissingNode() ? "-" : stats.get("samplesRecorded").asLong(),
          stats.isMissingNode() ? "-" : stats.get("runsDropped").asLong());
    }
    print(t, "no agents connected");
  }

  private void samplingRate() {
    List<String> a = args.expect("SERVICE", "RATE");
    args.allowOptions();
    double rate;
    try {
      rate = Double.parseDouble(a.get(1));
    } catch (NumberFormatException e) {
      throw new UsageException("RATE '" + a.get(1) + "' is not a number; e.g. 0.0001");
    }
    JsonNode answer =
        answer(api.post("/api/v1/agents/sampling-rate", Map.of("service", a.get(0), "rate", rate)));
    if (answer != null) {
      out.println(
          "sampling rate "
              + a.get(1)
              + " sent to "
              + answer.get("agents").asInt()
              + " agents of "
              + a.get(0));
    }
  }

  private void killSwitch() {
    List<String> a = args.expect("SERVICE", "on|off");
    args.allowOptions();
    String state = a.get(1).toLowerCase(Locale.ROOT);
    if (!state.equals("on") && !state.equals("off")) {
      throw new UsageException("kill-switch takes on or off, got '" + a.get(1) + "'");
    }
    boolean enabled = state.equals("off"); // the switch on means the probes off
    JsonNode answer =
        answer(api.post("/api/v1/agents/enabled", Map.of("service", a.get(0), "enabled", enabled)));
    if (answer != null) {
      out.println(
          "kill switch "
              + state
              + ": probes "
              + (enabled ? "enabled" : "disabled")
              + " in "
              + answer.get("agents").asInt()
              + " agents of "
              + a.get(0));
    }
  }

  private void print(Table table, String whenEmpty) {
    if (table.size() == 0) {
      if (!whenEmpty.isEmpty()) {
        out.println(whenEmpty);
      }
    } else {
      table.print(out);
    }
  }
}
