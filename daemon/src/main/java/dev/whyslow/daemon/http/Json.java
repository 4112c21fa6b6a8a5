package dev.whyslow.daemon.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;

/** The one JSON mapper of the API: nulls left out, no timestamps as arrays. */
public final class Json {
  public static final ObjectMapper MAPPER =
      new ObjectMapper()
          .setDefaultPropertyInclusion(JsonInclude.Include.NON_NULL)
          .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

  private Json() {}

  public static byte[] bytes(Object value) {
    try {
      return MAPPER.writeValueAsBytes(value);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Parses a request body; malformed JSON is a 400 that says where it broke. */
  public static JsonNode parseBody(byte[] body) {
    if (body.length == 0) {
      throw ApiException.badRequest("request body is empty; send a JSON object");
    }
    try {
      JsonNode node = MAPPER.readTree(body);
      if (node == null || !node.isObject()) {
        throw ApiException.badRequest("request body must be a JSON object, e.g. {\"label\": ...}");
      }
      return node;
    } catch (JsonProcessingException e) {
      String where =
          e.getLocation() == null
              ? ""
              : " at line "
                  + e.getLocation().getLineNr()
                  + ", column "
                  + e.getLocation().getColumnNr();
      throw ApiException.badRequest(
          "request body is not valid JSON: " + e.getOriginalMessage() + where);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
