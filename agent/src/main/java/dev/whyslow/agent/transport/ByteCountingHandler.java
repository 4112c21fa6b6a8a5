package dev.whyslow.agent.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the bytes the socket accepted. Sits nearest the socket so length prefixes count too, and
 * counts on write success so bytes lost with a dropped connection are not claimed as sent.
 */
final class ByteCountingHandler extends ChannelOutboundHandlerAdapter {
  private final LongAdder bytesSent;

  ByteCountingHandler(LongAdder bytesSent) {
    this.bytesSent = bytesSent;
  }

  @Override
  public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
    if (msg instanceof ByteBuf buf) {
      int bytes = buf.readableBytes();
      ChannelPromise counted = promise.unvoid();
      counted.addListener(
          future -> {
            if (future.isSuccess()) {
              bytesSent.add(bytes);
            }
          });
      ctx.write(msg, counted);
    } else {
      ctx.write(msg, promise);
    }
  }
}
