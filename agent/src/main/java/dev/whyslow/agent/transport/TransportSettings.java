package dev.whyslow.agent.transport;

import dev.whyslow.protocol.Hello;
import dev.whyslow.protocol.MessageCodec;
import java.util.Objects;

/**
 * How the agent talks to {@code whyslowd}: where, who it is, and the bounds that keep the transport
 * from harming the host (queue size, batch size and age, backoff). Invalid values are refused here
 * with a message naming the setting, so configuration code can report them and fall back to {@link
 * #defaults}.
 *
 * @param host daemon host name or address
 * @param port daemon agent port
 * @param hello the handshake sent on every connection (service, instance, versions, token)
 * @param queueCapacity most finished runs held while waiting to be sent; newer runs are dropped
 * @param batchMaxRuns most runs in one frame
 * @param batchMaxDelayMillis longest a queued run waits for its batch to fill
 * @param statsIntervalMillis how often agent statistics are sent
 * @param reconnectInitialMillis backoff cap for the first reconnect (full jitter below it)
 * @param reconnectMaxMillis the backoff cap never grows past this
 * @param fatalBackoffMillis wait after the daemon refused us for good (bad token, wrong version)
 * @param maxFrameBytes largest frame body sent or accepted; the daemon's {@code HelloOk} may lower
 *     it
 */
public record TransportSettings(
    String host,
    int port,
    Hello hello,
    int queueCapacity,
    int batchMaxRuns,
    long batchMaxDelayMillis,
    long statsIntervalMillis,
    long reconnectInitialMillis,
    long reconnectMaxMillis,
    long fatalBackoffMillis,
    int maxFrameBytes) {

  public static final int DEFAULT_QUEUE_CAPACITY = 8192;
  public static final int DEFAULT_BATCH_MAX_RUNS = 512;
  public static final long DEFAULT_BATCH_MAX_DELAY_MILLIS = 1_000;
  public static final long DEFAULT_STATS_INTERVAL_MILLIS = 10_000;
  public static final long DEFAULT_RECONNECT_INITIAL_MILLIS = 1_000;
  public static final long DEFAULT_RECONNECT_MAX_MILLIS = 30_000;
  public static final long DEFAULT_FATAL_BACKOFF_MILLIS = 300_000;

  /** Smallest frame limit that still fits a handshake and a few runs. */
  public static final int MIN_FRAME_BYTES = 1024;

  public TransportSettings {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(hello, "hello");
    if (host.isBlank()) {
      throw new IllegalArgumentException("daemon host is empty; set it to the whyslowd host name");
    }
    if (port < 1 || port > 65_535) {
      throw new IllegalArgumentException("daemon port must be in [1, 65535], was " + port);
    }
    requirePositive("queue capacity", queueCapacity);
    requirePositive("batch max runs", batchMaxRuns);
    requirePositive("batch max delay millis", batchMaxDelayMillis);
    requirePositive("stats interval millis", statsIntervalMillis);
    requirePositive("reconnect initial millis", reconnectInitialMillis);
    requirePositive("fatal backoff millis", fatalBackoffMillis);
    if (reconnectMaxMillis < reconnectInitialMillis) {
      throw new IllegalArgumentException(
          "reconnect max millis ("
              + reconnectMaxMillis
              + ") must be >= reconnect initial millis ("
              + reconnectInitialMillis
              + ")");
    }
    if (maxFrameBytes < MIN_FRAME_BYTES) {
      throw new IllegalArgumentException(
          "max frame bytes must be >= " + MIN_FRAME_BYTES + ", was " + maxFrameBytes);
    }
  }

  /** Production defaults for everything but the address and the handshake. */
  public static TransportSettings defaults(String host, int port, Hello hello) {
    return new TransportSettings(
        host,
        port,
        hello,
        DEFAULT_QUEUE_CAPACITY,
        DEFAULT_BATCH_MAX_RUNS,
        DEFAULT_BATCH_MAX_DELAY_MILLIS,
        DEFAULT_STATS_INTERVAL_MILLIS,
        DEFAULT_RECONNECT_INITIAL_MILLIS,
        DEFAULT_RECONNECT_MAX_MILLIS,
        DEFAULT_FATAL_BACKOFF_MILLIS,
        MessageCodec.DEFAULT_MAX_FRAME_BYTES);
  }

  /** {@code host:port}, for messages. */
  public String address() {
    return host + ":" + port;
  }

  private static void requirePositive(String name, long value) {
    if (value <= 0) {
      throw new IllegalArgumentException(name + " must be > 0, was " + value);
    }
  }
}
