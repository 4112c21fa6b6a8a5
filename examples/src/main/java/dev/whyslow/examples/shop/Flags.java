package dev.whyslow.examples.shop;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Command-line options of the shop's programs, {@code --name value} or {@code --name=value}, with
 * typed getters whose errors name the option, the value and what would be accepted.
 */
final class Flags {
  private final String program;
  private final Map<String, String> values;

  private Flags(String program, Map<String, String> values) {
    this.program = program;
    this.values = values;
  }

  /**
   * @throws IllegalArgumentException for an unknown option, a missing value or a stray argument
   */
  static Flags parse(String program, String[] args, List<String> known) {
    return parse(program, args, known, List.of());
  }

  /**
   * As {@link #parse(String, String[], List)}; the {@code switches} take no value ({@code --json}
   * means {@code --json=true}).
   */
  static Flags parse(String program, String[] args, List<String> known, List<String> switches) {
    Map<String, String> values = new LinkedHashMap<>();
    List<String> all = new ArrayList<>(known);
    all.addAll(switches);
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (!arg.startsWith("--")) {
        throw new IllegalArgumentException(
            program + ": unexpected argument '" + arg + "'; options are " + spelled(all));
      }
      int eq = arg.indexOf('=');
      String name = eq < 0 ? arg.substring(2) : arg.substring(2, eq);
      if (!known.contains(name) && !switches.contains(name)) {
        throw new IllegalArgumentException(
            program + ": unknown option --" + name + "; options are " + spelled(all));
      }
      String value;
      if (eq >= 0) {
        value = arg.substring(eq + 1);
      } else if (switches.contains(name)) {
        value = "true";
      } else if (i + 1 < args.length) {
        value = args[++i];
      } else {
        throw new IllegalArgumentException(program + ": option --" + name + " needs a value");
      }
      values.put(name, value);
    }
    return new Flags(program, values);
  }

  String string(String name, String fallback) {
    return values.getOrDefault(name, fallback);
  }

  boolean has(String name) {
    return values.containsKey(name);
  }

  int integer(String name, int fallback, int min, int max) {
    String text = values.get(name);
    if (text == null) {
      return fallback;
    }
    try {
      int value = Integer.parseInt(text.trim());
      if (value >= min && value <= max) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw bad(name, text, "a whole number from " + min + " to " + max);
  }

  double number(String name, double fallback, double min, double max) {
    String text = values.get(name);
    if (text == null) {
      return fallback;
    }
    try {
      double value = Double.parseDouble(text.trim());
      if (value >= min && value <= max) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw bad(name, text, "a number from " + min + " to " + max);
  }

  /** A duration such as {@code 30s}, {@code 2m}, {@code 500ms} or {@code 1h}. */
  Duration duration(String name, Duration fallback) {
    String text = values.get(name);
    if (text == null) {
      return fallback;
    }
    Duration parsed = parseDuration(text);
    if (parsed == null) {
      throw bad(name, text, "a duration such as 500ms, 30s, 2m or 1h");
    }
    return parsed;
  }

  IllegalArgumentException bad(String name, String value, String expected) {
    return new IllegalArgumentException(
        program + ": --" + name + " must be " + expected + ", was '" + value + "'");
  }

  static Duration parseDuration(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    String[] units = {"ms", "s", "m", "h"};
    for (String unit : units) {
      if (t.endsWith(unit) && !(unit.equals("s") && t.endsWith("ms"))) {
        try {
          long amount = Long.parseLong(t.substring(0, t.length() - unit.length()));
          if (amount < 0) {
            return null;
          }
          switch (unit) {
            case "ms":
              return Duration.ofMillis(amount);
            case "s":
              return Duration.ofSeconds(amount);
            case "m":
              return Duration.ofMinutes(amount);
            default:
              return Duration.ofHours(amount);
          }
        } catch (NumberFormatException e) {
          return null;
        }
      }
    }
    return null;
  }

  /** A switch's value: true when given bare or as {@code =true}. */
  boolean flag(String name) {
    String text = values.getOrDefault(name, "false");
    if (text.equals("true") || text.equals("false")) {
      return text.equals("true");
    }
    throw bad(name, text, "true or false, or given alone");
  }

  private static String spelled(List<String> known) {
    StringBuilder out = new StringBuilder();
    for (String name : known) {
      out.append(out.length() == 0 ? "--" : ", --").append(name);
    }
    return out.toString();
  }
}
