package dev.whyslow.agent.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.util.internal.logging.InternalLogLevel;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import org.junit.jupiter.api.Test;

class QuietNettyLoggingTest {
  private final RecordingLog log = new RecordingLog();
  private final InternalLogger logger =
      new QuietNettyLogging(log.log).newInstance("io.netty.Example");

  @Test
  void debugAndInfoAreDropped() {
    logger.debug("selector {}", "rebuilt");
    logger.info("started");
    logger.log(InternalLogLevel.INFO, "started");

    assertThat(logger.isDebugEnabled()).isFalse();
    assertThat(logger.isEnabled(InternalLogLevel.INFO)).isFalse();
    assertThat(log.lines).isEmpty();
  }

  @Test
  void eachDistinctWarningIsPrintedOnce() {
    logger.warn("leak of {}", "a");
    logger.warn("leak of {}", "b");
    logger.error("failed", new IllegalStateException("x"));
    logger.log(InternalLogLevel.WARN, "leak of {}", "c");

    assertThat(logger.isWarnEnabled()).isTrue();
    assertThat(log.lines)
        .containsExactly(
            "[whyslow] netty io.netty.Example: leak of {}",
            "[whyslow] netty io.netty.Example: failed");
  }

  @Test
  void unrelocatedNettyKeepsItsOwnLogging() {
    InternalLoggerFactory before = InternalLoggerFactory.getDefaultFactory();

    QuietNettyLogging.installIfRelocated(log.log);

    assertThat(InternalLoggerFactory.getDefaultFactory()).isSameAs(before);
  }
}
