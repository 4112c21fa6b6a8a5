package dev.whyslow.examples.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteKind;
import org.junit.jupiter.api.Test;

class RootCauseTest {
  static final RootCause LOOP =
      new RootCause("loop-branch", "not taken", "dev.whyslow.examples.bugs.X", "", "X.java", 35);
  static final RootCause RETURN =
      new RootCause("return", "null", "dev.whyslow.examples.bugs.X", "", "X.java", 60);
  static final RootCause LIBRARY =
      new RootCause("loop-branch", "not taken", "java.util.LinkedList", "node", "", -1);

  static Site site(String className, String method, String file, int line, SiteKind kind) {
    return new Site(1, className, method, "()V", file, line, kind, 0, "");
  }

  @Test
  void aSourceMarkerMatchesItsLineKindAndPredicateInTheClassOrANestedOne() {
    Site loop = site("dev.whyslow.examples.bugs.X", "scan", "X.java", 35, SiteKind.LOOP_BRANCH);
    assertThat(LOOP.matches(loop, SiteKind.NOT_TAKEN)).isTrue();
    assertThat(LOOP.matches(loop, SiteKind.TAKEN)).isFalse();
    Site nested =
        site("dev.whyslow.examples.bugs.X$Index", "scan", "X.java", 35, SiteKind.LOOP_BRANCH);
    assertThat(LOOP.matches(nested, SiteKind.NOT_TAKEN)).isTrue();
    assertThat(
            LOOP.matches(
                site("dev.whyslow.examples.bugs.X", "scan", "X.java", 36, SiteKind.LOOP_BRANCH),
                SiteKind.NOT_TAKEN))
        .isFalse();
    assertThat(
            LOOP.matches(
                site("dev.whyslow.examples.bugs.X", "scan", "X.java", 35, SiteKind.BRANCH),
                SiteKind.NOT_TAKEN))
        .isFalse();
    assertThat(
            LOOP.matches(
                site("dev.whyslow.examples.bugs.XY", "scan", "X.java", 35, SiteKind.LOOP_BRANCH),
                SiteKind.NOT_TAKEN))
        .isFalse();
  }

  @Test
  void aReturnMarkerCoversEveryReturnKind() {
    Site reference =
        site("dev.whyslow.examples.bugs.X", "lookup", "X.java", 60, SiteKind.RETURN_REFERENCE);
    assertThat(RETURN.matches(reference, 0)).isTrue();
    assertThat(RETURN.matches(reference, 1)).isFalse();
    assertThat(RETURN.expressibleIn(Column.CBI_RETURN)).isTrue();
    assertThat(RETURN.expressibleIn(Column.DELTA_LDA_LOOP)).isFalse();
    assertThat(LOOP.expressibleIn(Column.CBI_BRANCH)).isTrue();
    assertThat(LOOP.expressibleIn(Column.DELTA_LDA_LOOP)).isTrue();
  }

  @Test
  void aLibraryMarkerMatchesAnyLineOfItsMethod() {
    Site forward =
        site("java.util.LinkedList", "node", "LinkedList.java", 577, SiteKind.LOOP_BRANCH);
    Site backward =
        site("java.util.LinkedList", "node", "LinkedList.java", 582, SiteKind.LOOP_BRANCH);
    Site other =
        site("java.util.LinkedList", "indexOf", "LinkedList.java", 600, SiteKind.LOOP_BRANCH);
    assertThat(LIBRARY.matches(forward, SiteKind.NOT_TAKEN)).isTrue();
    assertThat(LIBRARY.matches(backward, SiteKind.NOT_TAKEN)).isTrue();
    assertThat(LIBRARY.matches(other, SiteKind.NOT_TAKEN)).isFalse();
  }

  @Test
  void reportedPredictorsMatchLikeSites() {
    String x = "dev.whyslow.examples.bugs.X";
    assertThat(LOOP.matches("loop-branch", "not taken", x, "scan", "X.java", 35)).isTrue();
    assertThat(LOOP.matches("loop-branch", "taken", x, "scan", "X.java", 35)).isFalse();
    assertThat(LOOP.matches("branch", "not taken", x, "scan", "X.java", 35)).isFalse();
    assertThat(RETURN.matches("return-reference", "null", x, "lookup", "X.java", 60)).isTrue();
    assertThat(
            LIBRARY.matches(
                "loop-branch", "not taken", "java.util.LinkedList", "node", "LinkedList.java", 582))
        .isTrue();
  }
}
