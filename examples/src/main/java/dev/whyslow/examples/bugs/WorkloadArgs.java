package dev.whyslow.examples.bugs;

import java.util.Locale;

/**
 * The command line every bug workload takes, {@code good|bad <seed>}: which kind of input to
 * generate and the seed that makes it reproducible. It lives outside the workloads' classes so the
 * agent never instruments the code that knows whether an input is bad: a branch on that flag would
 * be a perfect (and useless) failure predictor.
 *
 * @param bad whether to generate an input that triggers the performance bug
 * @param seed seed of the input generator; the same seed gives the same input
 */
public record WorkloadArgs(boolean bad, long seed) {

  /**
   * @throws IllegalArgumentException naming the usage when the arguments are not {@code good|bad
   *     <seed>}
   */
  public static WorkloadArgs parse(String[] args) {
    if (args.length != 2) {
      throw new IllegalArgumentException(
          "expected 2 arguments, good|bad <seed>, got "
              + args.length
              + ": "
              + String.join(" ", args));
    }
    String kind = args[0].toLowerCase(Locale.ROOT);
    if (!kind.equals("good") && !kind.equals("bad")) {
      throw new IllegalArgumentException(
          "first argument must be good or bad (which input to generate), was '" + args[0] + "'");
    }
    long seed;
    try {
      seed = Long.parseLong(args[1]);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "second argument must be an integer seed, e.g. 7, was '" + args[1] + "'", e);
    }
    return new WorkloadArgs(kind.equals("bad"), seed);
  }

  /**
   * One line for stdout, e.g. {@code bad input seed=7: result=123456 elapsed_us=5321}: the result
   * shows the work was done, the time (input generation excluded) that bad inputs are slow.
   */
  public String describe(long result, long elapsedNanos) {
    return (bad ? "bad" : "good")
        + " input seed="
        + seed
        + ": result="
        + result
        + " elapsed_us="
        + elapsedNanos / 1000;
  }
}
