package dev.whyslow.daemon.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Builds API requests and reads JSON answers for handler tests that go through the router. */
final class Requests {
  private Requests() {}

  static ApiRequest get(String uri) {
    QueryStringDecoder d = new QueryStringDecoder(uri);
    return new ApiRequest(HttpMethod.GET, d.rawPath(), d.parameters(), Map.of(), new byte[0]);
  }

  static ApiRequest post(String uri, String body) {
    QueryStringDecoder d = new QueryStringDecoder(uri);
    return new ApiRequest(
        HttpMethod.POST,
        d.rawPath(),
        d.parameters(),
        Map.of(),
        body.getBytes(StandardCharsets.UTF_8));
  }

  static JsonNode json(ApiResponse response) {
    assertThat(response.contentType()).isEqualTo(ApiResponse.JSON);
    try {
      return Json.MAPPER.readTree(response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static JsonNode ok(HttpRouter router, ApiRequest request) {
    ApiResponse response = router.dispatch(request);
    assertThat(response.status()).isEqualTo(HttpResponseStatus.OK);
    return json(response);
  }

  /** Dispatches a request that must be refused; returns the refusal. */
  static ApiException refused(HttpRouter router, ApiRequest request) {
    ApiException e = catchThrowableOfType(ApiException.class, () -> router.dispatch(request));
    assertThat(e).as("refusal of " + request.method() + " " + request.path()).isNotNull();
    return e;
  }
}
