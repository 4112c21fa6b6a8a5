package dev.whyslow.bench.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ThreadCpuTest {
  @Test
  void threadsAreSortedByWhatTheyDo() {
    assertThat(ThreadCpu.kindOf("pool-1-thread-3")).isEqualTo("requests");
    assertThat(ThreadCpu.kindOf("HTTP-Dispatcher")).isEqualTo("dispatcher");
    assertThat(ThreadCpu.kindOf("whyslow-transport")).isEqualTo("agent");
    assertThat(ThreadCpu.kindOf("C2 CompilerThre")).isEqualTo("jit");
    assertThat(ThreadCpu.kindOf("GC Thread#0")).isEqualTo("gc+vm");
    assertThat(ThreadCpu.kindOf("main")).isEqualTo("other");
  }

  @Test
  void aBusyThreadsCpuShowsUnderItsKind() {
    assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "needs Linux's /proc");
    long pid = ProcessHandle.current().pid();
    Map<String, Double> before = ThreadCpu.of(pid);
    long deadline = System.nanoTime() + 300_000_000L;
    long spin = 0;
    while (System.nanoTime() < deadline) {
      spin++;
    }
    Map<String, Double> spent = ThreadCpu.minus(ThreadCpu.of(pid), before);
    assertThat(spin).isPositive();
    // This thread ran for 0.3 s: at least some ticks of it are counted, under its kind.
    String mine = ThreadCpu.kindOf(Thread.currentThread().getName());
    assertThat(spent.getOrDefault(mine, 0.0)).isGreaterThan(0.05);
  }

  @Test
  void eachThreadIsReadByItsName() {
    assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "needs Linux's /proc");
    String name = Thread.currentThread().getName();
    Thread.currentThread().setName("thread-cpu-test");
    try {
      assertThat(ThreadCpu.byThread(ProcessHandle.current().pid()))
          .hasEntrySatisfying("thread-cpu-test", s -> assertThat(s).isPositive());
    } finally {
      Thread.currentThread().setName(name);
    }
  }
}
