package dev.whyslow.daemon.http;

import io.netty.handler.codec.http.HttpResponseStatus;
import java.nio.charset.StandardCharsets;

/** What a handler answers: status, content type and body bytes. */
public record ApiResponse(HttpResponseStatus status, String contentType, byte[] body) {
  public static final String JSON = "application/json; charset=utf-8";

  public static ApiResponse json(Object value) {
    return json(HttpResponseStatus.OK, value);
  }

  public static ApiResponse json(HttpResponseStatus status, Object value) {
    return new ApiResponse(status, JSON, Json.bytes(value));
  }

  public static ApiResponse text(HttpResponseStatus status, String contentType, String text) {
    return new ApiResponse(status, contentType, text.getBytes(StandardCharsets.UTF_8));
  }

  public static ApiResponse error(HttpResponseStatus status, String message) {
    return json(status, new ErrorBody(message));
  }

  /** The body of every error response. */
  public record ErrorBody(String error) {}
}
