package dev.whyslow.daemon.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class HttpApiHandlerTest {
  private final AtomicInteger writes = new AtomicInteger();
  private final HttpRouter router =
      new HttpRouter()
          .get("/ok", r -> ApiResponse.json(new ApiResponse.ErrorBody("fine")))
          .get(
              "/broken",
              r -> {
                throw new IllegalStateException("disk on fire");
              })
          .post(
              "/write",
              r -> {
                writes.incrementAndGet();
                return ApiResponse.json(Json.parseBody(r.body()));
              });
  private final EmbeddedChannel channel =
      new EmbeddedChannel(
          new JsonObjectAggregator(64), new HttpApiHandler(router, "t0ken", Runnable::run));

  @AfterEach
  void close() {
    channel.finishAndReleaseAll();
  }

  private FullHttpResponse exchange(FullHttpRequest request) {
    channel.writeInbound(request);
    return channel.readOutbound();
  }

  private static FullHttpRequest request(HttpMethod method, String uri, String body) {
    FullHttpRequest r =
        new DefaultFullHttpRequest(
            HttpVersion.HTTP_1_1, method, uri, Unpooled.copiedBuffer(body, StandardCharsets.UTF_8));
    HttpUtil.setContentLength(r, r.content().readableBytes());
    return r;
  }

  private static JsonNode body(FullHttpResponse response) throws Exception {
    try {
      return Json.MAPPER.readTree(response.content().toString(StandardCharsets.UTF_8));
    } finally {
      response.release();
    }
  }

  @Test
  void answersWithJsonAndContentLength() throws Exception {
    FullHttpResponse response = exchange(request(HttpMethod.GET, "/ok", ""));
    assertThat(response.status()).isEqualTo(HttpResponseStatus.OK);
    assertThat(response.headers().get(HttpHeaderNames.CONTENT_TYPE)).isEqualTo(ApiResponse.JSON);
    assertThat(response.headers().getInt(HttpHeaderNames.CONTENT_LENGTH))
        .isEqualTo(response.content().readableBytes());
    assertThat(body(response).get("error").asText()).isEqualTo("fine");
  }

  @Test
  void writeWithoutTokenIsUnauthorizedAndNotExecuted() throws Exception {
    FullHttpResponse response = exchange(request(HttpMethod.POST, "/write", "{}"));
    assertThat(response.status()).isEqualTo(HttpResponseStatus.UNAUTHORIZED);
    assertThat(response.headers().get(HttpHeaderNames.WWW_AUTHENTICATE)).isEqualTo("Bearer");
    assertThat(body(response).get("error").asText()).contains("Authorization: Bearer");
    assertThat(writes).hasValue(0);
  }

  @Test
  void writeWithWrongTokenIsUnauthorized() {
    FullHttpRequest r = request(HttpMethod.POST, "/write", "{}");
    r.headers().set(HttpHeaderNames.AUTHORIZATION, "Bearer t0ken-not");
    FullHttpResponse response = exchange(r);
    assertThat(response.status()).isEqualTo(HttpResponseStatus.UNAUTHORIZED);
    response.release();
    assertThat(writes).hasValue(0);
  }

  @Test
  void writeWithTokenIsExecuted() {
    FullHttpRequest r = request(HttpMethod.POST, "/write", "{\"a\":1}");
    r.headers().set(HttpHeaderNames.AUTHORIZATION, "bearer t0ken");
    FullHttpResponse response = exchange(r);
    assertThat(response.status()).isEqualTo(HttpResponseStatus.OK);
    response.release();
    assertThat(writes).hasValue(1);
  }

  @Test
  void readsNeedNoToken() {
    FullHttpResponse response = exchange(request(HttpMethod.GET, "/ok", ""));
    assertThat(response.status()).isEqualTo(HttpResponseStatus.OK);
    response.release();
  }

  @Test
  void malformedJsonIsABadRequestThatSaysWhere() throws Exception {
    FullHttpRequest r = request(HttpMethod.POST, "/write", "{\"a\":");
    r.headers().set(HttpHeaderNames.AUTHORIZATION, "Bearer t0ken");
    FullHttpResponse response = exchange(r);
    assertThat(response.status()).isEqualTo(HttpResponseStatus.BAD_REQUEST);
    assertThat(body(response).get("error").asText())
        .startsWith("request body is not valid JSON")
        .contains("line 1");
  }

  @Test
  void wrongMethodListsTheAllowedOnes() {
    FullHttpResponse response = exchange(request(HttpMethod.DELETE, "/ok", ""));
    // DELETE is a write: authorise it so the router gets to say 405.
    assertThat(response.status()).isEqualTo(HttpResponseStatus.UNAUTHORIZED);
    response.release();

    FullHttpRequest r = request(HttpMethod.DELETE, "/ok", "");
    r.headers().set(HttpHeaderNames.AUTHORIZATION, "Bearer t0ken");
    response = exchange(r);
    assertThat(response.status()).isEqualTo(HttpResponseStatus.METHOD_NOT_ALLOWED);
    assertThat(response.headers().get(HttpHeaderNames.ALLOW)).isEqualTo("GET");
    response.release();
  }

  @Test
  void handlerFailureIsAServerErrorWithAMessage() throws Exception {
    FullHttpResponse response = exchange(request(HttpMethod.GET, "/broken", ""));
    assertThat(response.status()).isEqualTo(HttpResponseStatus.INTERNAL_SERVER_ERROR);
    assertThat(body(response).get("error").asText()).contains("disk on fire");
  }

  @Test
  void bodyOverTheLimitIsRefusedWith413AndNotPassedOn() throws Exception {
    HttpRequest head = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/write");
    head.headers().set(HttpHeaderNames.AUTHORIZATION, "Bearer t0ken");
    HttpUtil.setContentLength(head, 100);
    channel.writeInbound(head);
    FullHttpResponse response = channel.readOutbound();
    assertThat(response.status()).isEqualTo(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE);
    assertThat(body(response).get("error").asText())
        .contains("64 bytes")
        .contains("http.max.body.bytes");

    // The rest of the oversized body is discarded and the connection serves the next request.
    channel.writeInbound(new DefaultHttpContent(Unpooled.wrappedBuffer(new byte[50])));
    channel.writeInbound(new DefaultLastHttpContent(Unpooled.wrappedBuffer(new byte[50])));
    assertThat(writes).hasValue(0);
    FullHttpResponse next = exchange(request(HttpMethod.GET, "/ok", ""));
    assertThat(next.status()).isEqualTo(HttpResponseStatus.OK);
    next.release();
  }

  @Test
  void connectionCloseIsHonoured() {
    FullHttpRequest r = request(HttpMethod.GET, "/ok", "");
    HttpUtil.setKeepAlive(r, false);
    FullHttpResponse response = exchange(r);
    response.release();
    assertThat(channel.isOpen()).isFalse();
  }
}
