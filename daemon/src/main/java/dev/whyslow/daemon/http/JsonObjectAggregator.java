package dev.whyslow.daemon.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpMessage;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import java.util.Map;

/**
 * Aggregates request bodies up to {@code http.max.body.bytes}; a larger body gets a JSON 413 that
 * names the limit. The body is never buffered beyond the limit.
 */
public final class JsonObjectAggregator extends HttpObjectAggregator {
  private final int maxBodyBytes;

  public JsonObjectAggregator(int maxBodyBytes) {
    super(maxBodyBytes);
    this.maxBodyBytes = maxBodyBytes;
  }

  @Override
  protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
    // As Netty does: a keep-alive request whose body is still coming keeps the connection, and the
    // aggregator discards the rest of the body; otherwise close after answering.
    boolean keepAlive = !(oversized instanceof FullHttpMessage) && HttpUtil.isKeepAlive(oversized);
    HttpApiHandler.respond(
        ctx,
        ApiResponse.error(
            HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
            "request body exceeds "
                + maxBodyBytes
                + " bytes (http.max.body.bytes); send less, e.g. label by time range"),
        keepAlive,
        Map.of());
  }
}
