package dev.whyslow.daemon.http;

import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * A request the API refuses, with the status and the words the caller needs: what was wrong, with
 * the value, and what to do. Rendered as {@code {"error": "..."}}.
 */
public final class ApiException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient HttpResponseStatus status;

  public ApiException(HttpResponseStatus status, String message) {
    super(message);
    this.status = status;
  }

  public HttpResponseStatus status() {
    return status;
  }

  public static ApiException badRequest(String message) {
    return new ApiException(HttpResponseStatus.BAD_REQUEST, message);
  }

  /** A bad query or body parameter: names it, quotes the value, says what is allowed. */
  public static ApiException badParameter(String name, Object value, String allowed) {
    return badRequest("parameter '" + name + "' has invalid value '" + value + "': " + allowed);
  }

  public static ApiException notFound(String message) {
    return new ApiException(HttpResponseStatus.NOT_FOUND, message);
  }
}
