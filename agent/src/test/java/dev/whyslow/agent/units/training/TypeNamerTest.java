package dev.whyslow.agent.units.training;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TypeNamerTest {
  private static final MethodNames NAMES = id -> id == 1 ? "com.acme.Catalog.search" : "x.Y.z" + id;

  @Test
  void severalTypesOfOneEntryAreNamedAfterTheirContextAndALoneTypeAfterItsEntry() {
    String[] entries = {"com.acme.Router.handle", "com.acme.Router.handle", "com.acme.Worker.run"};
    long[] signatures = {DistinctTrace.context(1, 2), DistinctTrace.context(2, 3), -1};

    assertThat(TypeNamer.names(entries, signatures, NAMES))
        .containsExactly(
            "Router.handle/Catalog.search", "Router.handle/Y.z2", "com.acme.Worker.run");
  }

  @Test
  void clashingNamesTakeTheDepthWhenItDiffersElseANumber() {
    String[] entries = {"a.R.h", "a.R.h", "a.R.h", "a.R.h"};
    long[] byDepth = {
      DistinctTrace.context(1, 2), DistinctTrace.context(1, 4), DistinctTrace.context(3, 2), -1
    };
    assertThat(TypeNamer.names(entries, byDepth, NAMES))
        .containsExactly("R.h/Catalog.search@2", "R.h/Catalog.search@4", "R.h/Y.z3", "R.h/other");

    long[] sameDepth = {DistinctTrace.context(1, 2), DistinctTrace.context(1, 2), -1, -1};
    assertThat(TypeNamer.names(entries, sameDepth, NAMES))
        .containsExactly("R.h/Catalog.search", "R.h/Catalog.search#2", "R.h/other", "R.h/other#2");
  }

  @Test
  void namesAreAtMostTwoHundredCharacters() {
    String longEntry = "p." + "X".repeat(300) + ".run";
    assertThat(TypeNamer.names(new String[] {longEntry}, new long[] {-1}, NAMES).get(0))
        .hasSize(200);
  }
}
