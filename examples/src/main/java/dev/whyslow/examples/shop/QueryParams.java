package dev.whyslow.examples.shop;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * The decoded parameters of a request's query string, with typed getters whose errors say what to
 * send.
 */
final class QueryParams {
  private final Map<String, String> values;

  private QueryParams(Map<String, String> values) {
    this.values = values;
  }

  static QueryParams parse(String rawQuery) {
    Map<String, String> values = new HashMap<>();
    if (rawQuery != null) {
      for (String pair : rawQuery.split("&")) {
        int eq = pair.indexOf('=');
        String name = eq < 0 ? pair : pair.substring(0, eq);
        String value = eq < 0 ? "" : pair.substring(eq + 1);
        values.put(decode(name), decode(value));
      }
    }
    return new QueryParams(values);
  }

  /**
   * @throws BadRequestException naming the parameter and an example when it is missing
   */
  String required(String name, String example) {
    String value = values.get(name);
    if (value == null || value.isEmpty()) {
      throw new BadRequestException(name + " is required, e.g. " + example);
    }
    return value;
  }

  String optional(String name, String fallback) {
    String value = values.get(name);
    return value == null || value.isEmpty() ? fallback : value;
  }

  int requiredInt(String name, String example) {
    String text = required(name, example);
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw new BadRequestException(
          name + " must be a whole number, e.g. " + example + ", was '" + text + "'");
    }
  }

  int optionalInt(String name, int fallback, String example) {
    return values.containsKey(name) ? requiredInt(name, example) : fallback;
  }

  double requiredDouble(String name, String example) {
    String text = required(name, example);
    try {
      return Double.parseDouble(text);
    } catch (NumberFormatException e) {
      throw new BadRequestException(
          name + " must be a number, e.g. " + example + ", was '" + text + "'");
    }
  }

  private static String decode(String text) {
    try {
      return URLDecoder.decode(text, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new BadRequestException("bad percent-encoding in the query string: '" + text + "'");
    }
  }
}
