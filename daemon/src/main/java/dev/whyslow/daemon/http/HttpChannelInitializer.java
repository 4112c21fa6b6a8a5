package dev.whyslow.daemon.http;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.concurrent.EventExecutorGroup;

/**
 * The HTTP pipeline: codec, a size-limited aggregator, and the API handler on a separate executor
 * group so a slow store read never stalls the event loop that also serves agents.
 */
public final class HttpChannelInitializer extends ChannelInitializer<Channel> {
  private final int maxBodyBytes;
  private final HttpRouter router;
  private final String apiToken;
  private final EventExecutorGroup apiExecutors;

  public HttpChannelInitializer(
      int maxBodyBytes, HttpRouter router, String apiToken, EventExecutorGroup apiExecutors) {
    this.maxBodyBytes = maxBodyBytes;
    this.router = router;
    this.apiToken = apiToken;
    this.apiExecutors = apiExecutors;
  }

  @Override
  protected void initChannel(Channel channel) {
    channel.pipeline().addLast("codec", new HttpServerCodec());
    channel.pipeline().addLast("aggregator", new JsonObjectAggregator(maxBodyBytes));
    // One single-threaded executor per connection keeps pipelined responses in request order.
    channel.pipeline().addLast("api", new HttpApiHandler(router, apiToken, apiExecutors.next()));
  }
}
