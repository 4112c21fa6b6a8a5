package dev.whyslow.daemon.http;

import static dev.whyslow.daemon.http.Requests.get;
import static dev.whyslow.daemon.http.Requests.post;
import static dev.whyslow.daemon.http.Requests.refused;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http.HttpResponseStatus;
import org.junit.jupiter.api.Test;

class HttpRouterTest {
  private final HttpRouter router =
      new HttpRouter()
          .get("/api/v1/services/{service}/sites", r -> ApiResponse.json(r.pathParams()))
          .get("/api/v1/runs", r -> ApiResponse.json("list"))
          .post("/api/v1/labels", r -> ApiResponse.json("labelled"));

  @Test
  void pathParametersAreDecoded() {
    assertThat(
            Requests.ok(router, get("/api/v1/services/shop%2Feu%20west/sites"))
                .get("service")
                .asText())
        .isEqualTo("shop/eu west");
  }

  @Test
  void trailingSlashIsTolerated() {
    assertThat(Requests.ok(router, get("/api/v1/runs/")).asText()).isEqualTo("list");
  }

  @Test
  void unknownPathIsNotFound() {
    ApiException e = refused(router, get("/api/v2/runs"));
    assertThat(e.status()).isEqualTo(HttpResponseStatus.NOT_FOUND);
    assertThat(e.getMessage()).contains("/api/v2/runs");
  }

  @Test
  void wrongMethodIsNotAllowedAndSaysWhichIs() {
    ApiException e = refused(router, post("/api/v1/runs", "{}"));
    assertThat(e.status()).isEqualTo(HttpResponseStatus.METHOD_NOT_ALLOWED);
    assertThat(e.getMessage()).contains("[GET]");
    assertThat(router.allowedMethods("/api/v1/labels")).containsExactly("POST");
  }
}
