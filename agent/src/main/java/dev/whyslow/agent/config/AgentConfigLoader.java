package dev.whyslow.agent.config;

import dev.whyslow.protocol.Label;
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

  static {
    DEFAULTS.put("enabled", "true");
    DEFAULTS.put("service", "unknown-service");
    DEFAULTS.put("instance", "");
    DEFAULTS.put("version", "unknown");
    DEFAULTS.put("daemon", "127.0.0.1:9720");
    DEFAULTS.put("token", "");
    DEFAULTS.put("sampling.rate", "0.0001");
    DEFAULTS.put("include", "");
    DEFAULTS.put("exclude", "");
    DEFAULTS.put("probes", "branch,return");
    DEFAULTS.put("process.run", "true");
    DEFAULTS.put("label", "do-not-care");
    DEFAULTS.put("queue.capacity", "1024");
    DEFAULTS.put("batch.max.runs", "512");
    DEFAULTS.put("batch.max.delay.ms", "1000");
    DEFAULTS.put("max.predicates", "400000");
    DEFAULTS.put("shutdown.flush.timeout.ms", "2000");
    DEFAULTS.put("log", "warn");
    DEFAULTS.put("dump", "");
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
            p.rate("sampling.rate"),
            include,
            p.prefixes("exclude"),
            p.probes("probes"),
            p.bool("process.run"),
            p.label("label"),
            p.positiveInt("queue.capacity"),
            p.positiveInt("batch.max.runs"),
            p.positiveInt("batch.max.delay.ms"),
            p.positiveInt("max.predicates"),
            p.nonNegativeLong("shutdown.flush.timeout.ms"),
            p.logLevel("log"),
            p.string("dump"));
    return new Result(config, problems);
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

  /** Parses one validated value, recording a problem and returning the default when it is bad. */
  private static final class ValueParser {
    private final Map<String, String[]> raw;
    private final Map<String, String> defaults;
    private final List<String> problems;

    ValueParser(Map<String, String[]> raw, Map<String, String> defaults, List<String> problems) {
      this.raw = raw;
      this.defaults = defaults;
      this.problems = problems;
    }

    String string(String key) {
      return value(key).trim();
    }

    boolean bool(String key) {
      String v = value(key).trim().toLowerCase(Locale.ROOT);
      if (v.equals("true") || v.equals("false")) {
        return Boolean.parseBoolean(v);
      }
      bad(key, "is not true or false");
      return Boolean.parseBoolean(defaults.get(key));
    }

    int positiveInt(String key) {
      String v = value(key).trim().replace("_", "");
      try {
        int n = Integer.parseInt(v);
        if (n > 0) {
          return n;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      bad(key, "is not a whole number > 0");
      return Integer.parseInt(defaults.get(key));
    }

    long nonNegativeLong(String key) {
      String v = value(key).trim().replace("_", "");
      try {
        long n = Long.parseLong(v);
        if (n >= 0) {
          return n;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      bad(key, "is not a whole number >= 0");
      return Long.parseLong(defaults.get(key));
    }

    double rate(String key) {
      Double parsed = parseRate(value(key).trim());
      if (parsed != null && parsed >= 1e-6 && parsed <= 1.0) {
        return parsed;
      }
      bad(key, "is not a rate in [1e-6, 1] (write 0.0001 or 1/10000)");
      return parseRate(defaults.get(key));
    }

    String[] hostPort(String key) {
      String[] parsed = parseHostPort(value(key).trim());
      if (parsed != null) {
        return parsed;
      }
      bad(key, "is not host:port with a port in [1, 65535]");
      return parseHostPort(defaults.get(key));
    }

    List<String> prefixes(String key) {
      List<String> out = new ArrayList<>();
      for (String piece : value(key).split(",")) {
        String prefix = piece.trim().replace('/', '.');
        if (prefix.endsWith(".*")) {
          prefix = prefix.substring(0, prefix.length() - 2);
        }
        if (!prefix.isEmpty()) {
          out.add(prefix);
        }
      }
      return out;
    }

    ProbeSet probes(String key) {
      boolean branches = false;
      boolean returns = false;
      for (String piece : value(key).split(",")) {
        String name = piece.trim().toLowerCase(Locale.ROOT);
        switch (name) {
          case "branch", "branches" -> branches = true;
          case "return", "returns" -> returns = true;
          case "" -> {}
          default ->
              problems.add(
                  "probes contains '"
                      + piece.trim()
                      + "' ("
                      + source(key)
                      + "), which is not a probe family; it was ignored (known: branch, return)");
        }
      }
      if (!branches && !returns) {
        bad(key, "names no known probe family");
        return ProbeSet.ALL;
      }
      return new ProbeSet(branches, returns);
    }

    Label label(String key) {
      try {
        return Label.parse(value(key));
      } catch (IllegalArgumentException e) {
        bad(key, "is not success, failure or do-not-care");
        return Label.parse(defaults.get(key));
      }
    }

    LogLevel logLevel(String key) {
      String v = value(key).trim().toUpperCase(Locale.ROOT);
      for (LogLevel level : LogLevel.values()) {
        if (level.name().equals(v)) {
          return level;
        }
      }
      bad(key, "is not warn, info or debug");
      return LogLevel.valueOf(defaults.get(key).toUpperCase(Locale.ROOT));
    }

    private String value(String key) {
      String[] v = raw.get(key);
      return v != null ? v[0] : defaults.get(key);
    }

    private String source(String key) {
      String[] v = raw.get(key);
      return v != null ? v[1] : "default";
    }

    private void bad(String key, String why) {
      problems.add(
          key
              + "="
              + value(key)
              + " ("
              + source(key)
              + ") "
              + why
              + "; using the default "
              + key
              + "="
              + defaults.get(key));
    }

    private static Double parseRate(String text) {
      try {
        int slash = text.indexOf('/');
        if (slash >= 0) {
          double num = Double.parseDouble(text.substring(0, slash).trim());
          double den = Double.parseDouble(text.substring(slash + 1).trim());
          return num / den;
        }
        return Double.parseDouble(text);
      } catch (NumberFormatException e) {
        return null;
      }
    }

    /** {@code host:port} or {@code [ipv6]:port}; {@code null} when malformed. */
    private static String[] parseHostPort(String text) {
      String host;
      String port;
      if (text.startsWith("[")) {
        int close = text.indexOf("]:");
        if (close < 0) {
          return null;
        }
        host = text.substring(1, close);
        port = text.substring(close + 2);
      } else {
        int colon = text.lastIndexOf(':');
        if (colon < 0 || text.indexOf(':') != colon) {
          return null;
        }
        host = text.substring(0, colon);
        port = text.substring(colon + 1);
      }
      try {
        int p = Integer.parseInt(port.trim());
        if (host.isBlank() || p < 1 || p > 65_535) {
          return null;
        }
        return new String[] {host.trim(), Integer.toString(p)};
      } catch (NumberFormatException e) {
        return null;
      }
    }
  }
}
