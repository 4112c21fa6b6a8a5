package dev.whyslow.examples.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteKind;
import org.junit.jupiter.api.Test;

class RootCauseTest {
  static final String X = "dev.whyslow.examples.bugs.X";
  static final RootCause LOOP = new RootCause("loop-branch", "not taken", "", X, "", "X.java", 35);
  static final RootCause RETURN = new RootCause("return", "null", "", X, "", "X.java", 60);
  static final RootCause PAIR =
      new RootCause("scalar-pair", "<", "new t vs watermark", X, "", "X.java", 70);
  static final RootCause LIBRARY =
      new RootCause("loop-branch", "not taken", "", "java.util.LinkedList", "node", "", -1);

  static Site site(String className, String method, String file, int line, SiteKind kind) {
    return site(className, method, file, line, kind, "");
  }

  static Site site(
      String className, String method, String file, int line, SiteKind kind, String detail) {
    return new Site(1, className, method, "()V", file, line, kind, 0, detail);
  }

  @Test
  void aSourceMarkerMatchesItsLineKindAndPredicateInTheClassOrANestedOne() {
    assertThat(
            LOOP.matches(site(X, "scan", "X.java", 35, SiteKind.LOOP_BRANCH), SiteKind.NOT_TAKEN))
        .isTrue();
    assertThat(LOOP.matches(site(X, "scan", "X.java", 35, SiteKind.LOOP_BRANCH), SiteKind.TAKEN))
        .isFalse();
    assertThat(
            LOOP.matches(
                site(X + "$Index", "scan", "X.java", 35, SiteKind.LOOP_BRANCH), SiteKind.NOT_TAKEN))
        .isTrue();
    assertThat(
            LOOP.matches(site(X, "scan", "X.java", 36, SiteKind.LOOP_BRANCH), SiteKind.NOT_TAKEN))
        .isFalse();
    assertThat(LOOP.matches(site(X, "scan", "X.java", 35, SiteKind.BRANCH), SiteKind.NOT_TAKEN))
        .isFalse();
    assertThat(
            LOOP.matches(
                site(X + "Y", "scan", "X.java", 35, SiteKind.LOOP_BRANCH), SiteKind.NOT_TAKEN))
        .isFalse();
  }

  @Test
  void aReturnMarkerCoversEveryReturnKind() {
    Site reference = site(X, "lookup", "X.java", 60, SiteKind.RETURN_REFERENCE);
    assertThat(RETURN.matches(reference, 0)).isTrue();
    assertThat(RETURN.matches(reference, 1)).isFalse();
    assertThat(RETURN.expressibleIn(Column.CBI_RETURN)).isTrue();
    assertThat(RETURN.expressibleIn(Column.DELTA_LDA_LOOP)).isFalse();
    assertThat(LOOP.expressibleIn(Column.CBI_BRANCH)).isTrue();
    assertThat(LOOP.expressibleIn(Column.DELTA_LDA_LOOP)).isTrue();
  }

  @Test
  void aScalarPairMarkerMatchesOnlyItsPair() {
    assertThat(
            PAIR.matches(
                site(X, "main", "X.java", 70, SiteKind.SCALAR_PAIR, "new t vs watermark"),
                SiteKind.LT))
        .isTrue();
    assertThat(
            PAIR.matches(
                site(X, "main", "X.java", 70, SiteKind.SCALAR_PAIR, "new t vs old t"), SiteKind.LT))
        .isFalse();
    assertThat(
            PAIR.matches(
                site(X, "main", "X.java", 70, SiteKind.SCALAR_PAIR, "new t vs watermark"),
                SiteKind.LE))
        .isFalse();
    assertThat(PAIR.expressibleIn(Column.CBI_SCALAR_PAIR)).isTrue();
  }

  @Test
  void aLibraryMarkerMatchesAnyLineOfItsMethod() {
    String list = "java.util.LinkedList";
    assertThat(
            LIBRARY.matches(
                site(list, "node", "LinkedList.java", 577, SiteKind.LOOP_BRANCH),
                SiteKind.NOT_TAKEN))
        .isTrue();
    assertThat(
            LIBRARY.matches(
                site(list, "node", "LinkedList.java", 582, SiteKind.LOOP_BRANCH),
                SiteKind.NOT_TAKEN))
        .isTrue();
    assertThat(
            LIBRARY.matches(
                site(list, "indexOf", "LinkedList.java", 600, SiteKind.LOOP_BRANCH),
                SiteKind.NOT_TAKEN))
        .isFalse();
  }

  @Test
  void describesWhereAndWhat() {
    assertThat(LOOP.describe()).isEqualTo("X.java:35 loop-branch \"not taken\"");
    assertThat(PAIR.describe()).isEqualTo("X.java:70 scalar-pair \"<\" (new t vs watermark)");
    assertThat(LIBRARY.describe()).isEqualTo("java.util.LinkedList.node loop-branch \"not taken\"");
  }
}
