package dev.whyslow.daemon;

import dev.whyslow.protocol.Message;
import dev.whyslow.protocol.MessageCodec;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;

/**
 * A plain-socket agent for tests: writes raw bytes or encoded frames and reads the daemon's
 * replies, each read bounded by a timeout so a test never hangs.
 */
public final class TestAgent implements AutoCloseable {
  private static final int TIMEOUT_MILLIS = 10_000;

  private final Socket socket;
  private final OutputStream out;
  private final DataInputStream in;

  public TestAgent(InetSocketAddress daemon) throws IOException {
    socket = new Socket();
    socket.connect(daemon, TIMEOUT_MILLIS);
    socket.setSoTimeout(TIMEOUT_MILLIS);
    socket.setTcpNoDelay(true);
    out = socket.getOutputStream();
    in = new DataInputStream(socket.getInputStream());
  }

  public TestAgent send(Message message) throws IOException {
    return sendBytes(MessageCodec.encodeFrame(message));
  }

  public TestAgent sendBytes(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
    return this;
  }

  /** Half-closes: the daemon sees the end of the stream, replies can still arrive. */
  public void shutdownOutput() throws IOException {
    socket.shutdownOutput();
  }

  /** The next message from the daemon; fails if none arrives in time. */
  public Message read() throws Exception {
    int length = in.readInt();
    byte[] body = new byte[length];
    in.readFully(body);
    return MessageCodec.decode(body);
  }

  /** Whether the daemon closed the connection (end of stream) within the timeout. */
  public boolean closedByDaemon() throws IOException {
    try {
      return in.read() == -1;
    } catch (EOFException | SocketException e) {
      return true;
    } catch (SocketTimeoutException e) {
      return false;
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
