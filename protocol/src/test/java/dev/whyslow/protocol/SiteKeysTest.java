package dev.whyslow.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SiteKeysTest {

  @Test
  void sameSiteGivesSameKeyEveryTime() {
    // A fixed value: keys must never change between releases, or stored runs stop lining up.
    long key =
        SiteKeys.key(
            "java.util.ArrayList", "indexOf", "(Ljava/lang/Object;)I", 12, SiteKind.LOOP_BRANCH);
    assertThat(key)
        .isEqualTo(
            SiteKeys.key(
                "java.util.ArrayList",
                "indexOf",
                "(Ljava/lang/Object;)I",
                12,
                SiteKind.LOOP_BRANCH));
    assertThat(SiteKeys.format(key)).isEqualTo(KNOWN);
  }

  /** Computed once from the FNV-1a definition; a change here breaks every stored site. */
  static final String KNOWN = "2569759021d58faf";

  @Test
  void everyComponentChangesTheKey() {
    long base = SiteKeys.key("a.B", "m", "()V", 1, SiteKind.BRANCH);
    assertThat(SiteKeys.key("a.C", "m", "()V", 1, SiteKind.BRANCH)).isNotEqualTo(base);
    assertThat(SiteKeys.key("a.B", "n", "()V", 1, SiteKind.BRANCH)).isNotEqualTo(base);
    assertThat(SiteKeys.key("a.B", "m", "()I", 1, SiteKind.BRANCH)).isNotEqualTo(base);
    assertThat(SiteKeys.key("a.B", "m", "()V", 2, SiteKind.BRANCH)).isNotEqualTo(base);
    assertThat(SiteKeys.key("a.B", "m", "()V", 1, SiteKind.LOOP_BRANCH)).isNotEqualTo(base);
    assertThat(SiteKeys.key("a.Bm", "", "()V", 1, SiteKind.BRANCH))
        .isNotEqualTo(SiteKeys.key("a.B", "m", "()V", 1, SiteKind.BRANCH));
  }

  @Test
  void formatAndParseAreInverse() {
    long key = 0xfedcba9876543210L;
    assertThat(SiteKeys.parse(SiteKeys.format(key))).isEqualTo(key);
  }
}
