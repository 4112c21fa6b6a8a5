package dev.whyslow.daemon.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads fields of a JSON request body with errors that name the field. Unknown fields are refused,
 * so a typo such as {@code "servce"} is a 400 rather than a write to every service.
 */
public final class JsonBody {
  private final JsonNode node;

  public JsonBody(byte[] body, Set<String> allowedFields) {
    this.node = Json.parseBody(body);
    Iterator<String> names = node.fieldNames();
    while (names.hasNext()) {
      String name = names.next();
      if (!allowedFields.contains(name)) {
        throw ApiException.badRequest(
            "unknown field '" + name + "'; allowed fields: " + new TreeSet<>(allowedFields));
      }
    }
  }

  public boolean has(String name) {
    JsonNode value = node.get(name);
    return value != null && !value.isNull();
  }

  public Optional<String> string(String name) {
    if (!has(name)) {
      return Optional.empty();
    }
    JsonNode value = node.get(name);
    if (!value.isTextual()) {
      throw ApiException.badParameter(name, value, "must be a string");
    }
    return Optional.of(value.asText());
  }

  public String requiredString(String name) {
    return string(name)
        .filter(s -> !s.isBlank())
        .orElseThrow(() -> ApiException.badRequest("field '" + name + "' is required"));
  }

  public double requiredNumber(String name) {
    if (!has(name)) {
      throw ApiException.badRequest("field '" + name + "' is required");
    }
    JsonNode value = node.get(name);
    if (!value.isNumber()) {
      throw ApiException.badParameter(name, value, "must be a number");
    }
    return value.asDouble();
  }

  public boolean requiredBoolean(String name) {
    if (!has(name)) {
      throw ApiException.badRequest("field '" + name + "' is required");
    }
    JsonNode value = node.get(name);
    if (!value.isBoolean()) {
      throw ApiException.badParameter(name, value, "must be true or false");
    }
    return value.asBoolean();
  }

  /** Epoch milliseconds as a number, or a string holding millis or an ISO-8601 instant. */
  public Optional<Long> time(String name) {
    if (!has(name)) {
      return Optional.empty();
    }
    JsonNode value = node.get(name);
    if (value.isIntegralNumber() && value.canConvertToLong() && value.asLong() >= 0) {
      return Optional.of(value.asLong());
    }
    if (value.isTextual()) {
      return Optional.of(TimeParam.parse(name, value.asText()));
    }
    throw ApiException.badParameter(
        name, value, "use epoch milliseconds or an ISO-8601 instant string");
  }

  public List<String> strings(String name) {
    List<String> list = new ArrayList<>();
    if (!has(name)) {
      return list;
    }
    JsonNode value = node.get(name);
    if (!value.isArray()) {
      throw ApiException.badParameter(name, value, "must be an array of strings");
    }
    for (JsonNode element : value) {
      if (!element.isTextual()) {
        throw ApiException.badParameter(name, element, "elements must be strings");
      }
      list.add(element.asText());
    }
    return list;
  }
}
