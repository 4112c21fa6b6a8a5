package dev.whyslow.agent.units.training;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.agent.bootstrap.ContextTable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class UnitTypeTrainerTest {
  private static final TrainingSettings DEFAULTS = TrainingSettings.defaults();

  @Test
  void threeNoisyKindsBehindOneRouterBecomeThreeNamedTypes() {
    TraceBuilder.Names names = new TraceBuilder.Names();
    List<UnitCallTrace> traces = new ShopTraces(names, 1).mixed(150);

    TrainedUnitTypes types = UnitTypeTrainer.train(traces, names, DEFAULTS);

    assertThat(types.typeCount()).isEqualTo(3);
    assertThat(typeNames(types))
        .containsExactlyInAnyOrder(
            "Router.handle/Search.query",
            "Router.handle/Cart.add",
            "Router.handle/Orders.checkout");
    assertThat(types.notes()).isEmpty();
  }

  @Test
  void deepFrameworkFramesAboveTheRouterDoNotBlurTheKinds() {
    TraceBuilder.Names names = new TraceBuilder.Names();
    ShopTraces shop = new ShopTraces(names, 6, 30);

    TrainedUnitTypes types = UnitTypeTrainer.train(shop.mixed(100), names, DEFAULTS);

    assertThat(typeNames(types))
        .containsExactlyInAnyOrder(
            "Router.handle/Search.query",
            "Router.handle/Cart.add",
            "Router.handle/Orders.checkout");
    assertThat(types.describe().get(indexOf(types, "Router.handle/Search.query")).contexts())
        .containsExactly("Router.handle > … > Search.query");
    for (int kind = 0; kind < 3; kind++) {
      UnitCallTrace unit = shop.unit(kind);
      assertThat(types.inferFromGuards(unit, new long[3])).isEqualTo(types.classify(unit));
    }
  }

  @Test
  void contextTableNamesEachKindAtItsGuards() {
    TraceBuilder.Names names = new TraceBuilder.Names();
    TrainedUnitTypes types =
        UnitTypeTrainer.train(new ShopTraces(names, 2).mixed(100), names, DEFAULTS);
    ContextTable table = types.contextTable();

    assertThat(candidatesAt(table, names, "com.shop.Search.query", 2))
        .isEqualTo(bitOf(types, "Router.handle/Search.query"));
    assertThat(candidatesAt(table, names, "com.shop.Cart.add", 2))
        .isEqualTo(bitOf(types, "Router.handle/Cart.add"));
    assertThat(candidatesAt(table, names, "com.shop.Orders.checkout", 2))
        .isEqualTo(bitOf(types, "Router.handle/Orders.checkout"));
    // Every type passes the router at depth 1: no guard there, it would tell nothing apart.
    assertThat(table.guardIdOf(names.id("com.shop.Router.route"))).isEqualTo(-1);
    assertThat(table.guardCount()).isEqualTo(3);
  }

  @Test
  void inferenceAtTheGuardsNamesTheClassifiedTypeOfFreshUnits() {
    TraceBuilder.Names names = new TraceBuilder.Names();
    ShopTraces shop = new ShopTraces(names, 3);
    TrainedUnitTypes types = UnitTypeTrainer.train(shop.mixed(100), names, DEFAULTS);
    long[] thresholds = new long[types.typeCount()];

    for (int kind = 0; kind < 3; kind++) {
      for (int i = 0; i < 50; i++) {
        UnitCallTrace unit = shop.unit(kind);
        int classified = types.classify(unit);
        assertThat(classified).isNotNegative();
        assertThat(types.inferFromGuards(unit, thresholds)).isEqualTo(classified);
      }
    }
    assertThat(types.classify(shop.unit(ShopTraces.SEARCH)))
        .isEqualTo(indexOf(types, "Router.handle/Search.query"));
  }

  @Test
  void sameUnitsInAnotherOrderAndWithOtherIdsGiveTheSameNamesAndTable() {
    TraceBuilder.Names names = new TraceBuilder.Names();
    List<UnitCallTrace> traces = new ShopTraces(names, 4).mixed(80);
    TrainedUnitTypes first = UnitTypeTrainer.train(traces, names, DEFAULTS);

    List<UnitCallTrace> shuffled = new ArrayList<>(traces);
    Collections.shuffle(shuffled, new Random(99));
    TrainedUnitTypes second = UnitTypeTrainer.train(shuffled, names, DEFAULTS);

    assertThat(typeNames(second)).isEqualTo(typeNames(first));
    assertThat(second.describe()).isEqualTo(first.describe());
    assertThat(tableByName(second, names)).isEqualTo(tableByName(first, names));

    // Ids handed out in another order (a restart): the same generator seed with the names
    // registered in reverse first.
    TraceBuilder.Names other = new TraceBuilder.Names(1000);
    for (int i = first.describe().size() - 1; i >= 0; i--) {
      other.id("com.shop.Zzz" + i);
    }
    other.id("com.shop.Render.page");
    other.id("com.shop.Orders.checkout");
    List<UnitCallTrace> restarted = new ShopTraces(other, 4).mixed(80);
    TrainedUnitTypes third = UnitTypeTrainer.train(restarted, other, DEFAULTS);
    assertThat(typeNames(third)).isEqualTo(typeNames(first));
    assertThat(third.describe()).isEqualTo(first.describe());
    assertThat(tableByName(third, other)).isEqualTo(tableByName(first, names));
  }

  @Test
  void unitsOfDifferentEntryPointsNeverShareATypeAndALoneTypeKeepsItsEntryPointName() {
    TraceBuilder.Names names = new TraceBuilder.Names();
    List<UnitCallTrace> traces = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      traces.add(
          new TraceBuilder(names, "com.acme.Worker.process").enter("com.acme.Job.run").build());
      traces.add(
          new TraceBuilder(names, "com.acme.Other.process").enter("com.acme.Job.run").build());
    }

    TrainedUnitTypes types = UnitTypeTrainer.train(traces, names, DEFAULTS);

    assertThat(typeNames(types))
        .containsExactly("com.acme.Other.process", "com.acme.Worker.process");
    assertThat(types.contextTable().guardCount()).isZero();
    assertThat(types.typeOfEntryPoint("com.acme.Worker.process")).isEqualTo(1);
    assertThat(types.inferFromGuards(traces.get(0), new long[2])).isEqualTo(1);
    assertThat(types.classify(traces.get(1))).isZero();
    assertThat(
            types.classify(
                new TraceBuilder(names, "com.acme.Unknown.run").leaf("com.acme.Job.run").build()))
        .isEqualTo(-1);
  }

  @Test
  void typesBeyondSixtyFourAreCappedAndSaidSo() {
    TraceBuilder.Names names = new TraceBuilder.Names();
    List<UnitCallTrace> traces = new ArrayList<>();
    for (int e = 0; e < 70; e++) {
      for (int i = 0; i <= e % 3; i++) {
        traces.add(new TraceBuilder(names, "com.acme.Entry" + e + ".run").leaf("A.b").build());
      }
    }

    TrainedUnitTypes types = UnitTypeTrainer.train(traces, names, DEFAULTS);

    assertThat(types.typeCount()).isEqualTo(64);
    assertThat(types.contextTable().typeCount()).isEqualTo(64);
    assertThat(types.notes())
        .singleElement()
        .asString()
        .contains("more than maxTypes=64", "keep their entry point");
  }

  @Test
  void tooManyDistinctTreesAreClusteredUpToTheCapAndTheRestJoinTheirNearestType() {
    TraceBuilder.Names names = new TraceBuilder.Names();
    List<UnitCallTrace> traces = new ShopTraces(names, 5).mixed(100);
    TrainingSettings few = new TrainingSettings(0.1, 64, 12, 32, 64, 50_000, 64, 32, 3);

    TrainedUnitTypes types = UnitTypeTrainer.train(traces, names, few);

    assertThat(types.typeCount()).isEqualTo(3);
    assertThat(types.notes()).singleElement().asString().contains("maxDistinctTraces=12");
    for (UnitCallTrace t : traces) {
      assertThat(types.inferFromGuards(t, new long[3])).isEqualTo(types.classify(t));
    }
  }

  private static List<String> typeNames(TrainedUnitTypes types) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < types.typeCount(); i++) {
      out.add(types.typeName(i));
    }
    return out;
  }

  private static int indexOf(TrainedUnitTypes types, String name) {
    return typeNames(types).indexOf(name);
  }

  private static long bitOf(TrainedUnitTypes types, String name) {
    int i = indexOf(types, name);
    assertThat(i).as("type %s in %s", name, typeNames(types)).isNotNegative();
    return 1L << i;
  }

  private static long candidatesAt(
      ContextTable table, TraceBuilder.Names names, String method, int depth) {
    int guard = table.guardIdOf(names.id(method));
    assertThat(guard).as("guard at %s", method).isNotNegative();
    return table.candidates(guard, depth);
  }

  /** The table as "method@depth=bits" lines, by name, to compare across id assignments. */
  private static List<String> tableByName(TrainedUnitTypes types, MethodNames names) {
    ContextTable table = types.contextTable();
    List<String> out = new ArrayList<>();
    for (int g = 0; g < table.guardCount(); g++) {
      for (int d = 0; d < table.depthSpan(); d++) {
        long c = table.candidates(g, d);
        if (c != 0) {
          out.add(names.nameOf(table.methodIdOf(g)) + "@" + d + "=" + Long.toBinaryString(c));
        }
      }
    }
    return out;
  }
}
