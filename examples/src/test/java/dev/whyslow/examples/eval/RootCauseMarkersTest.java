package dev.whyslow.examples.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.whyslow.examples.bugs.LineStartScan;
import dev.whyslow.examples.bugs.LinkedListImport;
import java.util.List;
import org.junit.jupiter.api.Test;

class RootCauseMarkersTest {
  @Test
  void sourceMarkersGiveKindPredicateAndLineAndDropTheRemark() {
    String source =
        "class X {\n"
            + "  void f() {\n"
            + "    if (a == 0) { // ROOT CAUSE: branch not taken (unknown count)\n"
            + "    }\n"
            + "    return x; // ROOT CAUSE: return > 0\n"
            + "    long t = next(); // ROOT CAUSE: scalar-pair < new t vs watermark (late)\n"
            + "  }\n"
            + "}\n";
    List<RootCause> causes = RootCauseMarkers.fromSource(LineStartScan.class, source);
    String name = LineStartScan.class.getName();
    assertThat(causes)
        .containsExactly(
            new RootCause("branch", "not taken", "", name, "", "LineStartScan.java", 3),
            new RootCause("return", "> 0", "", name, "", "LineStartScan.java", 5),
            new RootCause(
                "scalar-pair", "<", "new t vs watermark", name, "", "LineStartScan.java", 6));
  }

  @Test
  void aMalformedMarkerNamesItsLine() {
    String source = "a\nb // ROOT CAUSE: loop taken\n";
    assertThatThrownBy(() -> RootCauseMarkers.fromSource(LineStartScan.class, source))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("LineStartScan.java:2")
        .hasMessageContaining("'loop taken'");
  }

  @Test
  void theLibraryConstantNamesClassMethodKindAndPredicate() {
    assertThat(RootCauseMarkers.libraryCause(LinkedListImport.class))
        .contains(
            new RootCause("loop-branch", "not taken", "", "java.util.LinkedList", "node", "", -1));
    assertThat(RootCauseMarkers.libraryCause(LineStartScan.class)).isEmpty();
  }

  @Test
  void everyWorkloadMarksARootCauseItsSuitableColumnCanExpress() {
    for (Workload workload : WorkloadCatalog.all()) {
      List<RootCause> causes = workload.rootCauses();
      assertThat(causes).as(workload.name()).isNotEmpty();
      assertThat(RootCauseRanker.expressible(workload.suitable(), causes))
          .as("%s's suitable column %s", workload.name(), workload.suitable())
          .isTrue();
    }
  }

  @Test
  void workloadsExcludeTheirInputGeneratorsAndOnlyTheLibraryCaseIncludesJavaUtil() {
    for (Workload workload : WorkloadCatalog.all()) {
      assertThat(workload.excludes()).containsExactly(workload.mainClass().getName() + "$Inputs");
      List<String> expected =
          workload.mainClass() == LinkedListImport.class
              ? List.of(workload.mainClass().getName(), "java.util")
              : List.of(workload.mainClass().getName());
      assertThat(workload.includes()).as(workload.name()).isEqualTo(expected);
    }
  }
}
