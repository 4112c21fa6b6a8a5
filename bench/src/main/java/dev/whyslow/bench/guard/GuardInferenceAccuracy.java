package dev.whyslow.bench.guard;

import dev.whyslow.agent.units.training.TrainedUnitTypes;
import dev.whyslow.agent.units.training.TrainingSettings;
import dev.whyslow.agent.units.training.UnitCallTrace;
import dev.whyslow.agent.units.training.UnitTypeTrainer;

/**
 * How often the guards' inference names the type the whole trace is classified as: trains on
 * synthetic shop units (several seeds, with and without framework frames above the router), then
 * replays the guards on fresh units with {@link TrainedUnitTypes#inferFromGuards} and compares with
 * {@link TrainedUnitTypes#classify}, and with the kind that generated the unit. The budget: at
 * least 95 %. Run: {@code java -cp bench/target/whyslow-bench.jar
 * dev.whyslow.bench.guard.GuardInferenceAccuracy [seeds] [trainingPerKind] [testPerKind]}.
 */
public final class GuardInferenceAccuracy {
  /** The method each kind's type should be named after. */
  private static final String[] KIND_METHODS = {"Search.query", "Cart.add", "Orders.checkout"};

  private GuardInferenceAccuracy() {}

  public static void main(String[] args) {
    int seeds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
    int trainingPerKind = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    int testPerKind = args.length > 2 ? Integer.parseInt(args[2]) : 1000;
    for (int frameworkDepth : new int[] {0, 20}) {
      long agree = 0;
      long named = 0;
      long total = 0;
      long wrongTypeCount = 0;
      long trainingNanos = 0;
      for (int seed = 0; seed < seeds; seed++) {
        SyntheticShopUnits shop = new SyntheticShopUnits(seed, frameworkDepth);
        long start = System.nanoTime();
        TrainedUnitTypes types =
            UnitTypeTrainer.train(shop.mixed(trainingPerKind), shop, TrainingSettings.defaults());
        trainingNanos += System.nanoTime() - start;
        if (types.typeCount() != SyntheticShopUnits.KINDS) {
          wrongTypeCount++;
        }
        long[] thresholds = new long[types.typeCount()];
        for (int i = 0; i < testPerKind; i++) {
          for (int kind = 0; kind < SyntheticShopUnits.KINDS; kind++) {
            UnitCallTrace unit = shop.unit(kind);
            int inferred = types.inferFromGuards(unit, thresholds);
            if (inferred == types.classify(unit)) {
              agree++;
            }
            if (inferred >= 0 && types.typeName(inferred).endsWith("/" + KIND_METHODS[kind])) {
              named++;
            }
            total++;
          }
        }
      }
      System.out.printf(
          "framework depth %d: %d seeds, %d training units each; inference = classify for %d of"
              + " %d fresh units (%.3f %%), names the generating kind for %d (%.3f %%); training runs with a type count other than 3: %d;"
              + " mean training time %.1f ms%n",
          frameworkDepth,
          seeds,
          trainingPerKind * SyntheticShopUnits.KINDS,
          agree,
          total,
          100.0 * agree / total,
          named,
          100.0 * named / total,
          wrongTypeCount,
          trainingNanos / 1e6 / seeds);
    }
  }
}
