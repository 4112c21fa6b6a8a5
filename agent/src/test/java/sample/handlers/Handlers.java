package sample.handlers;

import io.netty.channel.ChannelHandlerContext;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;

/** Entry points the agent recognises by name and descriptor alone, and one it must not. */
public final class Handlers {
  private Handlers() {}

  /** A Netty handler's read. */
  public static final class Reader {
    public int reads;

    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      if (msg == null) {
        throw new IllegalArgumentException("no message");
      }
      reads++;
    }
  }

  /** A servlet. */
  public static final class Servlet {
    public int served;

    public void service(ServletRequest request, ServletResponse response) {
      served += request == null ? 0 : 1;
    }
  }

  /** Same name, other descriptor: not an entry point. */
  public static final class NotAServlet {
    public int service(String request) {
      return request.length();
    }
  }
}
