package dev.whyslow.agent.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * Reads the agent's configuration with the usual precedence: agent arguments ({@code
 * -javaagent:whyslow-agent.jar=key=value,...}) over system properties ({@code whyslow.<key>}) over
 * environment variables ({@code WHYSLOW_<KEY>}, dots as underscores) over a properties file ({@code
 * config=path}, {@code whyslow.config}, {@code WHYSLOW_CONFIG}) over defaults. A bad value never
 * stops the service: it is reported (key, value, where it came from, default used) and the default
 * is used instead.
 *
 * <p>In agent arguments a comma-separated piece without {@code =} continues the previous value, so
 * lists work inline: {@code include=com.acme,org.lib,service=checkout}.
 */
public final class AgentConfigLoader {
  /** Every key with its default, in documentation order. */
  static final Map<String, String> DEFAULTS = new LinkedHashMap<>();

  /**
   * The longest {@code daemon.connect.delay} accepted: past it the daemon would learn of a service
   * so late that a restart looks like an outage.
   */
  static final long MAX_CONNECT_DELAY_MILLIS = 10 * 60_000;

  static {
    DEFAULTS.put("enabled", "true");
    DEFAULTS.put("service", "unknown-service");
    DEFAULTS.put("instance", "");
    DEFAULTS.put("version", "unknown");
    DEFAULTS.put("daemon", "127.0.0.1:9720");
    DEFAULTS.put("token", "");
    DEFAULTS.put("daemon.connect.delay", "5s");
    DEFAULTS.put("sampling.rate", "0.0001");
    DEFAULTS.put("sampling.invocations", "on");
    DEFAULTS.put("sampling.invocation.share", Double.toString(InvocationSampling.DEFAULT_SHARE));
    DEFAULTS.put(
        "sampling.invocation.share.steady",
        Double.toString(InvocationSampling.DEFAULT_STEADY_SHARE));
    DEFAULTS.put("sampling.invocation.settle", "5s");
    DEFAULTS.put("sampling.windows", "off");
    DEFAULTS.put("sampling.window", "30s");
    DEFAULTS.put("sampling.window.every", "5m");
    DEFAULTS.put("sampling.seed", "");
    DEFAULTS.put("include", "");
    DEFAULTS.put("exclude", "");
    DEFAULTS.put("probes", "branch,return");
    DEFAULTS.put("probes.fastpath", "on");
    DEFAULTS.put("scalar.pair.partners", Integer.toString(ProbeSet.DEFAULT_SCALAR_PAIR_PARTNERS));
    DEFAULTS.put("process.run", "true");
    DEFAULTS.put("label", "do-not-care");
    DEFAULTS.put("queue.capacity", "1024");
    DEFAULTS.put("batch.max.runs", "512");
    DEFAULTS.put("batch.max.delay.ms", "1000");
    DEFAULTS.put("max.predicates", "400000");
    DEFAULTS.put("shutdown.flush.timeout.ms", "2000");
    DEFAULTS.put("log", "warn");
    DEFAULTS.put("dump", "");
    DEFAULTS.put("units", "on");
    DEFAULTS.put("units.training.units", "400");
    DEFAULTS.put("units.training.share", "0.25");
    DEFAULTS.put("units.stats.interval", "10s");
    DEFAULTS.put("units.runs", "sampled");
    DEFAULTS.put("units.watchdog.interval", "1s");
    DEFAULTS.put("units.declare", "");
    DEFAULTS.put("units.audit.share", "0");
    DEFAULTS.put("units.depth", "auto");
    DEFAULTS.put("units.choice", "invocation");
    DEFAULTS.put("config", "");
  }

  /** The configuration and every problem found, each a sentence for the operator. */
  public record Result(AgentConfig config, List<String> problems) {
    public Result {
      problems = List.copyOf(problems);
    }
  }

  private final List<String> problems = new ArrayList<>();
  private final Map<String, String[]> raw = new LinkedHashMap<>(); // key -> {value, source}

  private AgentConfigLoader() {}

  /** Loads from the agent arguments and this JVM's system properties and environment. */
  public static Result load(String agentArgs) {
    Map<String, String> props = new LinkedHashMap<>();
    for (String name : System.getProperties().stringPropertyNames()) {
      props.put(name, System.getProperty(name));
    }
    return load(agentArgs, props, System.getenv());
  }

  public static Result load(
      String agentArgs, Map<String, String> systemProperties, Map<String, String> environment) {
    return new AgentConfigLoader().run(agentArgs, systemProperties, environment);
  }

  private Result run(String agentArgs, Map<String, String> sys, Map<String, String> env) {
    Map<String, String> args = parseAgentArgs(agentArgs);
    Map<String, String> file = Map.of();
    String configPath = firstNonNull(args.get("config"), sys.get("whyslow.config"));
    configPath = firstNonNull(configPath, env.get("WHYSLOW_CONFIG"));
    if (configPath != null && !configPath.isBlank()) {
      file = readFile(configPath.trim());
    }
    for (String key : DEFAULTS.keySet()) {
      String envName = "WHYSLOW_" + key.toUpperCase(Locale.ROOT).replace('.', '_');
      if (args.containsKey(key)) {
        raw.put(key, new String[] {args.get(key), "agent arguments"});
      } else if (sys.containsKey("whyslow." + key)) {
        raw.put(key, new String[] {sys.get("whyslow." + key), "system property whyslow." + key});
      } else if (env.containsKey(envName)) {
        raw.put(key, new String[] {env.get(envName), "environment variable " + envName});
      } else if (file.containsKey(key)) {
        raw.put(key, new String[] {file.get(key), "file " + configPath});
      }
    }
    ValueParser p = new ValueParser(raw, DEFAULTS, problems);
    boolean enabled = p.bool("enabled");
    String service = p.string("service");
    if (enabled && !raw.containsKey("service")) {
      problems.add(
          "service is not set, so runs are stored under 'unknown-service'; name the service with"
              + " -javaagent:whyslow-agent.jar=service=<name>, -Dwhyslow.service=<name> or"
              + " WHYSLOW_SERVICE");
    }
    String[] daemon = p.hostPort("daemon");
    List<String> include = p.prefixes("include");
    if (enabled && include.isEmpty()) {
      problems.add(
          "include is empty, so no class is instrumented; list the packages to diagnose, e.g."
              + " include=com.acme,org.somelib");
    }
    AgentConfig config =
        new AgentConfig(
            enabled,
            service,
            p.string("instance"),
            p.string("version"),
            daemon[0],
            Integer.parseInt(daemon[1]),
            p.string("token"),
            p.boundedDurationMillis("daemon.connect.delay", MAX_CONNECT_DELAY_MILLIS),
            p.rate("sampling.rate"),
            invocationSampling(p),
            p.optionalLong("sampling.seed"),
            include,
            p.prefixes("exclude"),
            p.probes("probes", "scalar.pair.partners").withFastPath(p.onOff("probes.fastpath")),
            p.bool("process.run"),
            p.label("label"),
            p.positiveInt("queue.capacity"),
            p.positiveInt("batch.max.runs"),
            p.positiveInt("batch.max.delay.ms"),
            p.positiveInt("max.predicates"),
            p.nonNegativeLong("shutdown.flush.timeout.ms"),
            p.logLevel("log"),
            p.string("dump"),
            new UnitSettings(
                p.onOff("units"),
                p.positiveInt("units.training.units"),
                p.share("units.training.share"),
                p.durationMillis("units.stats.interval"),
                p.choice("units.runs", "sampled", "all").equals("all"),
                p.durationMillis("units.watchdog.interval"),
                p.declaredMethods("units.declare"),
                p.share("units.audit.share"),
                p.choice("units.depth", "auto", "all").equals("all"),
                p.choice("units.choice", "invocation", "unit").equals("unit")),
            windows(p));
    return new Result(config, problems);
  }

  /** The sampling windows; a window not shorter than its period is reported, and both defaulted. */
  private SamplingWindowSettings windows(ValueParser p) {
    boolean on = p.onOff("sampling.windows");
    long window = p.durationMillis("sampling.window");
    long every = p.durationMillis("sampling.window.every");
    if (window >= every) {
      problems.add(
          "sampling.window ("
              + window
              + " ms) is not shorter than sampling.window.every ("
              + every
              + " ms); the defaults were used (30s every 5m)");
      window = SamplingWindowSettings.DEFAULT_WINDOW_MILLIS;
      every = SamplingWindowSettings.DEFAULT_EVERY_MILLIS;
    }
    return new SamplingWindowSettings(on, window, every);
  }

  /**
   * The invocation shares. A steady share above the share (a share set below the default steady
   * one) is taken as the share: the share is never raised.
   */
  private static InvocationSampling invocationSampling(ValueParser p) {
    double share = p.positiveShare("sampling.invocation.share");
    return new InvocationSampling(
        p.onOff("sampling.invocations"),
        share,
        Math.min(share, p.positiveShare("sampling.invocation.share.steady")),
        p.durationMillis("sampling.invocation.settle"));
  }

  private Map<String, String> parseAgentArgs(String agentArgs) {
    Map<String, String> out = new LinkedHashMap<>();
    if (agentArgs == null || agentArgs.isBlank()) {
      return out;
    }
    String lastKey = null;
    for (String piece : agentArgs.split(",")) {
      int eq = piece.indexOf('=');
      if (eq < 0) {
        if (lastKey != null) {
          out.put(lastKey, out.get(lastKey) + "," + piece); // continues a list value
        } else if (!piece.isBlank()) {
          problems.add(
              "agent argument '"
                  + piece
                  + "' is not key=value and was ignored; write e.g. service=checkout");
        }
        continue;
      }
      String key = piece.substring(0, eq).trim();
      if (!DEFAULTS.containsKey(key)) {
        problems.add(unknownKey(key, "agent arguments"));
        lastKey = null;
        continue;
      }
      out.put(key, piece.substring(eq + 1));
      lastKey = key;
    }
    return out;
  }

  private Map<String, String> readFile(String path) {
    Properties props = new Properties();
    try (Reader in = Files.newBufferedReader(Path.of(path), StandardCharsets.UTF_8)) {
      props.load(in);
    } catch (IOException | RuntimeException e) {
      problems.add(
          "cannot read the configuration file "
              + path
              + " ("
              + e
              + "); continuing without it. Check the path given by config, whyslow.config or"
              + " WHYSLOW_CONFIG");
      return Map.of();
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (String key : props.stringPropertyNames()) {
      String normal = key.startsWith("whyslow.") ? key.substring("whyslow.".length()) : key;
      if (DEFAULTS.containsKey(normal)) {
        out.put(normal, props.getProperty(key));
      } else {
        problems.add(unknownKey(key, "file " + path));
      }
    }
    return out;
  }

  private static String unknownKey(String key, String source) {
    return "unknown key '"
        + key
        + "' in "
        + source
        + " was ignored; known keys: "
        + String.join(", ", DEFAULTS.keySet());
  }

  private static String firstNonNull(String a, String b) {
    return a != null ? a : b;
  }
}
