package dev.whyslow.agent.config;

import dev.whyslow.protocol.Label;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;

/** Parses one validated value, recording a problem and returning the default when it is bad. */
final class ValueParser {
  /** More partners than this per store only inflates code size; a method has few live ints. */
  static final int MAX_SCALAR_PAIR_PARTNERS = 64;

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

  /** A whole number, or empty where the value is {@code ""} or not a number (reported). */
  OptionalLong optionalLong(String key) {
    String v = value(key).trim().replace("_", "");
    if (v.isEmpty()) {
      return OptionalLong.empty();
    }
    try {
      return OptionalLong.of(Long.parseLong(v));
    } catch (NumberFormatException e) {
      problems.add(
          key + "=" + value(key) + " (" + source(key) + ") is not a whole number; left unset");
      return OptionalLong.empty();
    }
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

  /**
   * The probe families named in {@code key} ({@code branch}, {@code return}, {@code scalar-pair},
   * or {@code all}), with the scalar pair partner cap from {@code partnersKey}.
   */
  ProbeSet probes(String key, String partnersKey) {
    boolean branches = false;
    boolean returns = false;
    boolean scalarPairs = false;
    for (String piece : value(key).split(",")) {
      String name = piece.trim().toLowerCase(Locale.ROOT);
      switch (name) {
        case "branch", "branches" -> branches = true;
        case "return", "returns" -> returns = true;
        case "scalar-pair", "scalar-pairs" -> scalarPairs = true;
        case "all" -> branches = returns = scalarPairs = true;
        case "" -> {}
        default ->
            problems.add(
                "probes contains '"
                    + piece.trim()
                    + "' ("
                    + source(key)
                    + "), which is not a probe family; it was ignored (known: branch, return,"
                    + " scalar-pair, all)");
      }
    }
    int partners = intInRange(partnersKey, 0, MAX_SCALAR_PAIR_PARTNERS);
    if (!branches && !returns && !scalarPairs) {
      bad(key, "names no known probe family");
      return probes(defaults.get(key), partners);
    }
    return new ProbeSet(branches, returns, scalarPairs, partners);
  }

  /** Parses a default spelling, which is known to be good. */
  private static ProbeSet probes(String spelling, int partners) {
    boolean branches = spelling.contains("branch");
    boolean returns = spelling.contains("return");
    return new ProbeSet(branches, returns, spelling.contains("scalar-pair"), partners);
  }

  int intInRange(String key, int min, int max) {
    String v = value(key).trim().replace("_", "");
    try {
      int n = Integer.parseInt(v);
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    bad(key, "is not a whole number in [" + min + ", " + max + "]");
    return Integer.parseInt(defaults.get(key));
  }

  /** {@code on}/{@code off} (also {@code true}/{@code false}). */
  boolean onOff(String key) {
    String v = value(key).trim().toLowerCase(Locale.ROOT);
    if (v.equals("on") || v.equals("true")) {
      return true;
    }
    if (v.equals("off") || v.equals("false")) {
      return false;
    }
    bad(key, "is not on or off");
    return defaults.get(key).equals("on");
  }

  /** A share in [0, 1]: {@code 0.25} or {@code 1/4}. */
  double share(String key) {
    Double parsed = parseRate(value(key).trim());
    if (parsed != null && parsed >= 0 && parsed <= 1.0) {
      return parsed;
    }
    bad(key, "is not a share in [0, 1] (write 0.25 or 1/4)");
    return parseRate(defaults.get(key));
  }

  /** A share in (0, 1]: {@code 0.05} or {@code 1/20}. */
  double positiveShare(String key) {
    Double parsed = parseRate(value(key).trim());
    if (parsed != null && parsed > 0 && parsed <= 1.0) {
      return parsed;
    }
    bad(key, "is not a share in (0, 1] (write 0.05 or 1/20)");
    return parseRate(defaults.get(key));
  }

  /** One of {@code allowed}, lower case. */
  String choice(String key, String... allowed) {
    String v = value(key).trim().toLowerCase(Locale.ROOT);
    for (String a : allowed) {
      if (a.equals(v)) {
        return a;
      }
    }
    bad(key, "is not one of " + String.join(", ", allowed));
    return defaults.get(key);
  }

  /** A positive duration: {@code 500ms}, {@code 10s}, {@code 2m}; a bare number is milliseconds. */
  long durationMillis(String key) {
    Long parsed = parseDurationMillis(value(key).trim().toLowerCase(Locale.ROOT));
    if (parsed != null && parsed > 0) {
      return parsed;
    }
    bad(key, "is not a duration > 0 (write 500ms, 10s or 2m)");
    return parseDurationMillis(defaults.get(key));
  }

  /** As {@link #durationMillis}, from 0 (no wait) to {@code maxMillis}. */
  long boundedDurationMillis(String key, long maxMillis) {
    Long parsed = parseDurationMillis(value(key).trim().toLowerCase(Locale.ROOT));
    if (parsed != null && parsed >= 0 && parsed <= maxMillis) {
      return parsed;
    }
    bad(key, "is not a duration from 0 to " + maxMillis / 1000 + "s (write 0, 500ms, 10s or 2m)");
    return parseDurationMillis(defaults.get(key));
  }

  /** {@code Class#method} entries, class names dotted. */
  List<String> declaredMethods(String key) {
    List<String> out = new ArrayList<>();
    for (String piece : value(key).split(",")) {
      String m = piece.trim().replace('/', '.');
      if (m.isEmpty()) {
        continue;
      }
      int hash = m.indexOf('#');
      if (hash <= 0 || hash == m.length() - 1 || m.indexOf('#', hash + 1) >= 0) {
        problems.add(
            key
                + " contains '"
                + m
                + "' ("
                + source(key)
                + "), which is not Class#method; it was ignored (write e.g."
                + " com.acme.Worker#process)");
        continue;
      }
      out.add(m);
    }
    return out;
  }

  private static Long parseDurationMillis(String text) {
    long factor = 1;
    String number = text;
    if (text.endsWith("ms")) {
      number = text.substring(0, text.length() - 2);
    } else if (text.endsWith("s")) {
      factor = 1_000;
      number = text.substring(0, text.length() - 1);
    } else if (text.endsWith("m")) {
      factor = 60_000;
      number = text.substring(0, text.length() - 1);
    } else if (text.endsWith("h")) {
      factor = 3_600_000;
      number = text.substring(0, text.length() - 1);
    }
    try {
      return Math.multiplyExact(Long.parseLong(number.trim().replace("_", "")), factor);
    } catch (NumberFormatException | ArithmeticException e) {
      return null;
    }
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
