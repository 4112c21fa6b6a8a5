package dev.whyslow.agent.transport;

import dev.whyslow.protocol.ErrorMessage;
import dev.whyslow.protocol.Hello;
import dev.whyslow.protocol.HelloOk;
import dev.whyslow.protocol.Message;
import dev.whyslow.protocol.MessageCodec;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.RunBatch;
import dev.whyslow.protocol.SiteBatch;
import dev.whyslow.protocol.SiteCounts;
import dev.whyslow.protocol.SiteKeys;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A test double for whyslowd's agent port, written against {@link MessageCodec} directly: it
 * records what each connection sent and answers {@code Hello} with whatever {@link #onHello} says
 * ({@code null}: never answer).
 */
public final class FakeDaemon implements AutoCloseable {
  public final List<Connection> connections = new CopyOnWriteArrayList<>();
  volatile Function<Hello, Message> onHello = hello -> new HelloOk("test-daemon", 1 << 20);

  private final EventLoopGroup group =
      new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
  private final Channel server;

  private FakeDaemon() throws InterruptedException {
    server =
        new ServerBootstrap()
            .group(group)
            .channel(NioServerSocketChannel.class)
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    Connection connection = new Connection(ch);
                    connections.add(connection);
                    ch.pipeline()
                        .addLast(new LengthFieldBasedFrameDecoder(1 << 25, 0, 4, 0, 4))
                        .addLast(new Receiver(connection));
                  }
                })
            .bind(new InetSocketAddress("127.0.0.1", 0))
            .sync()
            .channel();
  }

  public static FakeDaemon start() throws InterruptedException {
    return new FakeDaemon();
  }

  public int port() {
    return ((InetSocketAddress) server.localAddress()).getPort();
  }

  Connection connection(int index) {
    return connections.get(index);
  }

  /** Every message of {@code type} received on any connection. */
  public <T extends Message> List<T> received(Class<T> type) {
    return connections.stream().flatMap(c -> c.received(type).stream()).toList();
  }

  /** {@link Connection#runsAheadOfTheirSites} over every connection. */
  public List<String> runsAheadOfTheirSites() {
    return connections.stream().flatMap(c -> c.runsAheadOfTheirSites().stream()).toList();
  }

  /** Every run received on any connection, in arrival order per connection. */
  public List<Run> runs() {
    return connections.stream().flatMap(c -> c.runs().stream()).toList();
  }

  /** Closes every client connection, as a daemon restart would. */
  void dropConnections() {
    for (Connection c : connections) {
      c.channel.close().syncUninterruptibly();
    }
  }

  @Override
  public void close() {
    server.close().syncUninterruptibly();
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  /** One accepted agent connection. */
  public static final class Connection {
    final Channel channel;
    final List<Message> received = new CopyOnWriteArrayList<>();

    Connection(Channel channel) {
      this.channel = channel;
    }

    public void send(Message message) {
      channel.writeAndFlush(Unpooled.wrappedBuffer(MessageCodec.encodeFrame(message)));
    }

    void sendRaw(byte[] bytes) {
      channel.writeAndFlush(Unpooled.wrappedBuffer(bytes));
    }

    public List<Run> runs() {
      return received.stream()
          .filter(m -> m instanceof RunBatch)
          .flatMap(m -> ((RunBatch) m).runs().stream())
          .toList();
    }

    public <T extends Message> List<T> received(Class<T> type) {
      return received.stream().filter(type::isInstance).map(type::cast).toList();
    }

    /**
     * Runs that mention a site no {@link SiteBatch} announced before them on this connection, as
     * {@code sequence:site key}; the real daemon refuses their whole batch.
     */
    public List<String> runsAheadOfTheirSites() {
      Set<Long> announced = new HashSet<>();
      List<String> ahead = new ArrayList<>();
      for (Message message : received) {
        if (message instanceof SiteBatch batch) {
          batch.sites().forEach(site -> announced.add(site.key()));
        } else if (message instanceof RunBatch batch) {
          for (Run run : batch.runs()) {
            for (SiteCounts counts : run.sites()) {
              if (!announced.contains(counts.siteKey())) {
                ahead.add(run.sequence() + ":" + SiteKeys.format(counts.siteKey()));
              }
            }
          }
        }
      }
      return ahead;
    }
  }

  private final class Receiver extends SimpleChannelInboundHandler<ByteBuf> {
    private final Connection connection;

    Receiver(Connection connection) {
      this.connection = connection;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) throws Exception {
      Message message = MessageCodec.decode(ByteBufUtil.getBytes(frame));
      connection.received.add(message);
      if (message instanceof Hello hello) {
        Message reply = onHello.apply(hello);
        if (reply != null) {
          var written = ctx.writeAndFlush(Unpooled.wrappedBuffer(MessageCodec.encodeFrame(reply)));
          if (reply instanceof ErrorMessage error && error.fatal()) {
            written.addListener(ChannelFutureListener.CLOSE);
          }
        }
      }
    }
  }
}
