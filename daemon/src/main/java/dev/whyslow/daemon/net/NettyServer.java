package dev.whyslow.daemon.net;

import dev.whyslow.daemon.config.HostPort;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;

/**
 * A listening TCP server on shared event loops that remembers its connections, so closing it stops
 * accepting and closes every connection. Used for both the agent port and the HTTP port.
 */
public final class NettyServer implements AutoCloseable {
  private final String role;
  private final Channel serverChannel;
  private final ChannelGroup connections;

  private NettyServer(String role, Channel serverChannel, ChannelGroup connections) {
    this.role = role;
    this.serverChannel = serverChannel;
    this.connections = connections;
  }

  /**
   * Binds {@code bind}; {@code role} names the server in errors ("agents", "http") and {@code
   * configKey} is the setting to change if the address is taken.
   */
  public static NettyServer start(
      String role,
      String configKey,
      HostPort bind,
      EventLoopGroup boss,
      EventLoopGroup workers,
      ChannelHandler childInitializer,
      boolean allowHalfClosure) {
    ChannelGroup connections = new DefaultChannelGroup(role, GlobalEventExecutor.INSTANCE);
    ServerBootstrap bootstrap =
        new ServerBootstrap()
            .group(boss, workers)
            .channel(NioServerSocketChannel.class)
            .option(ChannelOption.SO_BACKLOG, 256)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childOption(ChannelOption.SO_KEEPALIVE, true)
            .childOption(ChannelOption.ALLOW_HALF_CLOSURE, allowHalfClosure)
            .childHandler(
                new ChannelInitializer<Channel>() {
                  @Override
                  protected void initChannel(Channel channel) {
                    connections.add(channel);
                    channel.pipeline().addLast(childInitializer);
                  }
                });
    ChannelFuture bound = bootstrap.bind(bind.toSocketAddress()).awaitUninterruptibly();
    if (!bound.isSuccess()) {
      throw new IllegalStateException(
          "cannot listen for "
              + role
              + " on "
              + bind
              + ": "
              + bound.cause().getMessage()
              + "; set "
              + configKey
              + " to a free address",
          bound.cause());
    }
    return new NettyServer(role, bound.channel(), connections);
  }

  public InetSocketAddress address() {
    return (InetSocketAddress) serverChannel.localAddress();
  }

  public String role() {
    return role;
  }

  /** Stops accepting; existing connections stay open. */
  public void stopAccepting() {
    serverChannel.close().syncUninterruptibly();
  }

  @Override
  public void close() {
    stopAccepting();
    connections.close().awaitUninterruptibly();
  }
}
