package dev.whyslow.agent.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The unsampled path of every probe, and fetching the thread state, allocate nothing. */
class ProbeAllocationTest {
  @AfterEach
  void restoreDefaults() {
    Probes.setProcessRun(null);
    Probes.setSamplingRate(1e-4);
  }

  @Test
  void unsampledProbesAllocateNoBytes() {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    Probes.setSamplingRate(1e-6);
    Probes.setProcessRun(new ChunkedRunCounts(64));
    Object o = new Object();
    exercise(o, 20_000); // warm up: class loading and compilation may allocate
    long before = threads.getCurrentThreadAllocatedBytes();
    long sink = exercise(o, 1_000_000);
    long allocated = threads.getCurrentThreadAllocatedBytes() - before;
    assertThat(sink).isNotZero();
    // A few hundred bytes of slack for the measurement itself; a per-call allocation would be MBs.
    assertThat(allocated).isLessThan(1_000);
  }

  private static long exercise(Object o, int n) {
    long sink = 0;
    for (int i = 0; i < n; i++) {
      ThreadState s = Probes.state();
      s.countdown = Integer.MAX_VALUE; // never reach the sampled path
      Probes.ifeq(i, s, 0);
      Probes.ifIcmplt(i, 7, s, 0);
      Probes.ifAcmpeq(o, s, s, 0);
      Probes.ifNonNull(o, s, 0);
      Probes.returnInt(i, s, 0);
      Probes.returnLong(i, s, 0);
      Probes.returnDouble(i, s, 0);
      Probes.returnBoolean(i & 1, s, 0);
      Probes.returnReference(o, s, 0);
      Probes.scalarInt(i, 7, s, 0);
      Probes.scalarLong(i, 7L, s, 0);
      sink += s.countdown;
    }
    return sink;
  }
}
