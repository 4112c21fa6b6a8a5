package dev.whyslow.examples.lockstep;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.charset.StandardCharsets;

/**
 * Runs a workload's rounds in blocks, one block per command on standard input, so that a benchmark
 * can alternate two JVMs block by block (bench's {@code LockstepOverheadBenchmark}): whatever the
 * host's speed does over minutes, it does to both JVMs' blocks alike. In a package of its own so
 * that an agent instrumenting the workload's package leaves this loop as javac wrote it.
 *
 * <p>Usage: {@code LockstepRounds <workloadClass> <warmupRounds> <roundsPerBlock>}, where the class
 * has a {@code static long round(int seed)}. Prints {@code ready} after the warm-up; then each line
 * {@code block} runs the next {@code roundsPerBlock} rounds and prints {@code block_ns=<elapsed>
 * checksum=<sum of the rounds>}; {@code end} or the end of input exits.
 */
public final class LockstepRounds {
  private LockstepRounds() {}

  public static void main(String[] args) throws Throwable {
    if (args.length != 3) {
      System.err.println("usage: LockstepRounds <workloadClass> <warmupRounds> <roundsPerBlock>");
      System.exit(2);
    }
    MethodHandle round = roundOf(Class.forName(args[0]));
    int warmup = Integer.parseInt(args[1]);
    int perBlock = Integer.parseInt(args[2]);
    int seed = 0;
    for (; seed < warmup; seed++) {
      long ignored = (long) round.invokeExact(seed);
    }
    PrintStream out = System.out;
    out.println("ready");
    out.flush();
    BufferedReader commands =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line; (line = commands.readLine()) != null && !line.equals("end"); ) {
      if (!line.equals("block")) {
        throw new IOException("unknown command: " + line);
      }
      long checksum = 0;
      long start = System.nanoTime();
      for (int i = 0; i < perBlock; i++, seed++) {
        checksum += (long) round.invokeExact(seed);
      }
      long elapsed = System.nanoTime() - start;
      out.println("block_ns=" + elapsed + " checksum=" + checksum);
      out.flush();
    }
  }

  /** The workload's package-private {@code round(int)}, as a handle the JIT calls directly. */
  private static MethodHandle roundOf(Class<?> workload) throws ReflectiveOperationException {
    MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(workload, MethodHandles.lookup());
    return lookup.findStatic(workload, "round", MethodType.methodType(long.class, int.class));
  }
}
