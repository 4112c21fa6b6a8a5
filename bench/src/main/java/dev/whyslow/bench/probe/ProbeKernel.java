package dev.whyslow.bench.probe;

/**
 * The hot loop the probe benchmark instruments: per element one loop branch and one data-dependent
 * branch, so a call over {@code n} elements evaluates {@code 2n + 1} branch predicates and one
 * return.
 */
public final class ProbeKernel {
  private ProbeKernel() {}

  public static long sumBelow(int[] data, int threshold) {
    long sum = 0;
    for (int i = 0; i < data.length; i++) {
      if (data[i] < threshold) {
        sum += data[i];
      } else {
        sum -= i;
      }
    }
    return sum;
  }
}
