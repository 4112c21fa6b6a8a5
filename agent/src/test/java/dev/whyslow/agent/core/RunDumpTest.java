package dev.whyslow.agent.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.whyslow.agent.bootstrap.ChunkedRunCounts;
import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.RunKind;
import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunDumpTest {
  @TempDir Path dir;

  @Test
  void theProcessRunHoldsObservedSitesAndTheDumpReadsBackEverySite() throws IOException {
    SiteRegistry registry = new SiteRegistry(100);
    Site branch = new Site(1L, "a.B", "m", "()V", "B.java", 7, SiteKind.LOOP_BRANCH, 0, "ifeq");
    Site ret = new Site(2L, "a.B", "n", "()I", "B.java", 9, SiteKind.RETURN_NUMERIC, -1, "");
    int[] slots = registry.registerAll(List.of(branch, ret));
    ChunkedRunCounts counts = new ChunkedRunCounts(registry.slotCapacity());
    counts.increment(slots[0]); // observed once, taken
    counts.increment(slots[0] + 1);

    Run run = ProcessRunBuilder.build(1, registry.entries(), counts, Label.SUCCESS, 0.5, 1000, 42);
    assertThat(run.kind()).isEqualTo(RunKind.PROCESS);
    assertThat(run.sites()).hasSize(1);
    assertThat(run.sites().get(0).siteKey()).isEqualTo(1L);
    assertThat(run.sites().get(0).trueCounts()).containsExactly(1, 0);

    Path file = dir.resolve("sub").resolve("run.dump");
    RunDump.write(file, run, registry.entries(), counts);
    RunDump.Contents contents = RunDump.read(file);
    assertThat(contents.run())
        .containsEntry("label", "success")
        .containsEntry("samplingRate", "0.5")
        .containsEntry("durationNanos", "42")
        .containsEntry("sites", "2")
        .containsEntry("observedSites", "1");
    assertThat(contents.sites()).hasSize(2);
    RunDump.DumpedSite first = contents.sitesOf("a.B", "m").get(0);
    assertThat(first.key()).isEqualTo("0000000000000001");
    assertThat(first.kind()).isEqualTo(SiteKind.LOOP_BRANCH);
    assertThat(first.line()).isEqualTo(7);
    assertThat(first.detail()).isEqualTo("ifeq");
    assertThat(first.observed()).isEqualTo(1);
    assertThat(contents.sitesOf("a.B", "n").get(0).trueCounts()).containsExactly(0, 0, 0, 0, 0, 0);
  }

  @Test
  void aFileThatIsNotADumpIsRefusedWithItsPath() throws IOException {
    Path file = Files.writeString(dir.resolve("x.txt"), "hello\n");
    assertThatThrownBy(() -> RunDump.read(file))
        .isInstanceOf(IOException.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining("not a whyslow dump");
  }
}
