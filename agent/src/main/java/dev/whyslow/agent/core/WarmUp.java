package dev.whyslow.agent.core;

import dev.whyslow.agent.config.AgentConfig;
import dev.whyslow.agent.config.ProbeSet;
import dev.whyslow.agent.instrument.ClassInstrumenter;
import dev.whyslow.agent.instrument.InstrumentationCounters;
import java.io.InputStream;

/**
 * Runs the instrumenter once on a class of its own before the transformer is installed, so the
 * classes instrumentation needs are loaded then, not in the middle of transforming an application
 * class (where loading them could recurse into the transformer).
 */
final class WarmUp {
  private WarmUp() {}

  static void transformOnce(AgentConfig config) {
    try (InputStream in = WarmUp.class.getResourceAsStream("WarmUp.class")) {
      if (in == null) {
        return;
      }
      byte[] bytes = in.readAllBytes();
      ClassInstrumenter instrumenter =
          new ClassInstrumenter(
              new SiteRegistry(1_000), new ProbeSet(true, true), new InstrumentationCounters());
      instrumenter.instrument(bytes);
    } catch (Throwable ignored) {
      // Only a warm-up: the real transformations report their own problems.
    }
    sample(config.maxPredicates() & 7);
  }

  /** Loops, branches and returns for the instrumenter to chew on. */
  static int sample(int n) {
    int sum = 0;
    for (int i = 0; i < n; i++) {
      if (i % 2 == 0) {
        sum += i;
      } else if (sum > 100) {
        break;
      }
    }
    return sum;
  }
}
