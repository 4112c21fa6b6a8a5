package dev.whyslow.daemon.http;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * Turns aggregated HTTP requests into {@link ApiRequest}s, checks the bearer token on writes, lets
 * the {@link HttpRouter} answer on an API executor (handlers read the store, which must not stall
 * an event loop), and renders refusals as {@code {"error": "..."}}. One instance per connection.
 */
public final class HttpApiHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
  private static final System.Logger LOG = System.getLogger(HttpApiHandler.class.getName());

  private final HttpRouter router;
  private final byte[] apiToken;
  private final Executor executor;

  public HttpApiHandler(HttpRouter router, String apiToken, Executor executor) {
    super(FullHttpRequest.class);
    this.router = router;
    this.apiToken = apiToken.getBytes(StandardCharsets.UTF_8);
    this.executor = executor;
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
    boolean keepAlive = HttpUtil.isKeepAlive(request);
    if (request.decoderResult().isFailure()) {
      respond(
          ctx,
          ApiResponse.error(
              HttpResponseStatus.BAD_REQUEST,
              "malformed HTTP request: " + request.decoderResult().cause().getMessage()),
          false,
          Map.of());
      return;
    }
    // Copy what the handlers need: the request's buffer is released when this method returns.
    QueryStringDecoder uri = new QueryStringDecoder(request.uri());
    ApiRequest apiRequest =
        new ApiRequest(
            request.method(),
            uri.rawPath(),
            uri.parameters(),
            Map.of(),
            ByteBufUtil.getBytes(request.content()));
    String authorization = request.headers().get(HttpHeaderNames.AUTHORIZATION);
    String description = request.method() + " " + request.uri();
    executor.execute(
        () -> {
          Map<String, String> headers = new HashMap<>();
          ApiResponse response = answer(apiRequest, authorization, description, headers);
          respond(ctx, response, keepAlive, headers);
        });
  }

  private ApiResponse answer(
      ApiRequest apiRequest,
      String authorization,
      String description,
      Map<String, String> headers) {
    try {
      if (isWrite(apiRequest.method()) && !authorized(authorization)) {
        headers.put(HttpHeaderNames.WWW_AUTHENTICATE.toString(), "Bearer");
        throw new ApiException(
            HttpResponseStatus.UNAUTHORIZED,
            "this write needs the API token: send 'Authorization: Bearer <api.token>'"
                + " (whyslow --token ...)");
      }
      return router.dispatch(apiRequest);
    } catch (ApiException e) {
      if (e.status().equals(HttpResponseStatus.METHOD_NOT_ALLOWED)) {
        headers.put(
            HttpHeaderNames.ALLOW.toString(),
            String.join(", ", router.allowedMethods(apiRequest.path())));
      }
      return ApiResponse.error(e.status(), e.getMessage());
    } catch (RuntimeException e) {
      LOG.log(Level.ERROR, "HTTP " + description + " failed", e);
      return ApiResponse.error(
          HttpResponseStatus.INTERNAL_SERVER_ERROR,
          "whyslowd failed to answer (" + e + "); see the daemon's log");
    }
  }

  private static boolean isWrite(HttpMethod method) {
    return !method.equals(HttpMethod.GET) && !method.equals(HttpMethod.HEAD);
  }

  private boolean authorized(String header) {
    if (apiToken.length == 0) {
      return true;
    }
    if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return false;
    }
    byte[] given = header.substring(7).trim().getBytes(StandardCharsets.UTF_8);
    return MessageDigest.isEqual(apiToken, given);
  }

  static void respond(
      ChannelHandlerContext ctx,
      ApiResponse response,
      boolean keepAlive,
      Map<String, String> extraHeaders) {
    FullHttpResponse http =
        new DefaultFullHttpResponse(
            HttpVersion.HTTP_1_1, response.status(), Unpooled.wrappedBuffer(response.body()));
    http.headers().set(HttpHeaderNames.CONTENT_TYPE, response.contentType());
    http.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, response.body().length);
    http.headers().set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_STORE);
    extraHeaders.forEach(http.headers()::set);
    if (keepAlive) {
      http.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
    } else {
      http.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    }
    ChannelFuture written = ctx.writeAndFlush(http);
    if (!keepAlive) {
      written.addListener(ChannelFutureListener.CLOSE);
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    LOG.log(Level.DEBUG, "HTTP connection " + ctx.channel().remoteAddress() + " failed", cause);
    ctx.close();
  }
}
