package dev.whyslow.agent.core;

import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteKeys;
import dev.whyslow.protocol.SiteKind;

/** Sites for tests. */
final class TestSites {
  private TestSites() {}

  static Site branch(String className, int index) {
    long key = SiteKeys.key(className, "m", "()V", index, SiteKind.BRANCH);
    return new Site(key, className, "m", "()V", "C.java", 1, SiteKind.BRANCH, -1, "ifeq");
  }
}
