package dev.whyslow.agent.bootstrap;

/**
 * The probes as instrumented code calls them: each takes the method's local countdown, decrements
 * it, and returns it; only when it runs out does it call the sampled path in {@link SampledProbes}
 * and return the next countdown instead. They are a few bytecodes each, so the JIT inlines them
 * into every site, and the code it makes is the decrement and branch that an inline test would be.
 *
 * <p>Why the test is here and not in the instrumented method: C2 compiles a branch whose profile
 * never saw one side taken as an uncommon trap, and a per-site test at one in 10,000 has rarely
 * been taken by the time its method is compiled. Its first sample then deoptimises the method,
 * which runs interpreted until it is compiled again; under load that went on all through a run, a
 * method at a time, and put those requests in the tail (the example shop's search and routing were
 * recompiled several times a minute). Here each kind of probe has one test whose profile every site
 * shares, so it has seen samples long before any method that inlines it is compiled. Predicates are
 * those of the {@link Probes} probes of the same name.
 */
public final class CheckedProbes {
  private CheckedProbes() {}

  // ---- branch probes: operands are copies of the jump's, predicate 0 = taken, 1 = not taken ----

  public static int ifeq(int v, ThreadState s, int slot, int cd) {
    if (--cd > 0) {
      return cd;
    }
    return SampledProbes.ifeq(v, s, slot);
  }

  public static int ifne(int v, ThreadState s, int slot, int cd) {
    if (--cd > 0) {
      return cd;
    }
    return SampledProbes.ifne(v, s, slot);
  }

  public static int iflt(int v, ThreadState s, int slot, int cd) {
    if (--cd > 0) {
      return cd;
    }
    return SampledProbes.iflt(v, s, slot);
  }

  public static int ifge(int v, ThreadState s, int slot, int cd) {
    if (--cd > 0) {
      return cd;
    }
    return SampledProbes.ifge(v, s, slot);
  }

  public static int ifgt(int v, ThreadState s, int slot, int cd) {
    if (--cd > 0) {
      return cd;
    }
    return SampledProbes.ifgt(v, s, slot);
  }

  public static int ifle(int v, ThreadState s, int slot, int cd) {
    if (--cd > 0) {
      return cd;
    }
    return SampledProbes.ifle(v, s, slot);
  }

  public static int ifIcmpeq(int a, int b, ThreadState s, int slot, int cd) {
    if (--cd > 0) {
      return cd;
    }
    return SampledProbes.ifIcmpeq(a, b, s, slot);
  }

  public static int ifIcmpne(int a, int b, ThreadState s, int slot, int cd) {
    if (--cd > 0) {
      return cd;
    }
    return SampledProbes.ifIcmpne(a, b, s, slot);
  }

  public static int ifIcmplt(int a, int b, ThreadState s, int slot, int cd) {
    if (--cd > 0) {
      return cd;
    }
    return SampledProbes.ifIcmplt(a, b, s, slot);
  }

  public static int ifIcmpge(int a, int b, ThreadState s, int slot, int cd) {
    if (--cd > 0) {
      return cd;
    }
    return SampledProbes.ifIcmpge(a, b, s, slot);
  }

  public static int ifIcmpgt(int a, int b, ThreadState s, int slot, int cd) {
    if (--cd > 0) {
      return cd;
    }
    return SampledProbes.ifIcmpgt(a, b, s, slot);
  }

  public static int ifIcmple(int a, int b, ThreadState s, int slot, int cd) {
    if (--cd > 0) {
      return cd;
    }
    return SampledProbes.ifIcmple(a, b, s, slot);
  }

  public static int ifAcmpeq(Object a, Object b, ThreadState s, int slot, int cd) {
    if (--cd > 0) {
      return cd;
    }
    return SampledProbes.ifAcmpeq(a, b, s, slot);
  }

  public static int ifAcmpne(Object a, Object b, ThreadState s, int slot, int cd) {
    if (--cd > 0) {
      return cd;
    }
    return SampledProbes.ifAcmpne(a, b, s, slot);
  }

  public static int ifNull(Object v, ThreadState s, int slot, int cd) {
    if (--cd > 0) {
      return cd;
    }
    return SampledProbes.ifNull(v, s, slot);
  }

  public static int ifNonNull(Object v, ThreadState s, int slot, int cd) {
    if (--cd > 0) {
      return cd;
    }
    return SampledProbes.ifNonNull(v, s, slot);
  }

  /**
   * A loop whose only probe is its own deciding branch ran on bare decrements and has left: when
   * its countdown ran out inside, the samples that fell there are recorded now ({@link
   * SampledProbes#loopExit}); otherwise the countdown goes on as it is.
   */
  public static int loopExit(ThreadState s, int cd, int slot, int exitPredicate) {
    if (cd > 0) {
      return cd;
    }
    return SampledProbes.loopExit(s, cd, slot, exitPredicate);
  }

  // ---- return probes ----

  public static int returnInt(int v, ThreadState s, int slot, int cd) {
    if (--cd > 0) {
      return cd;
    }
    return SampledProbes.returnInt(v, s, slot);
  }

  public static int returnLong(long v, ThreadState s, int slot, int cd) {
    if (--cd > 0) {
      return cd;
    }
    return SampledProbes.returnLong(v, s, slot);
  }

  public static int returnFloat(float v, ThreadState s, int slot, int cd) {
    if (--cd > 0) {
      return cd;
    }
    return SampledProbes.returnFloat(v, s, slot);
  }

  public static int returnDouble(double v, ThreadState s, int slot, int cd) {
    if (--cd > 0) {
      return cd;
    }
    return SampledProbes.returnDouble(v, s, slot);
  }

  public static int returnBoolean(int v, ThreadState s, int slot, int cd) {
    if (--cd > 0) {
      return cd;
    }
    return SampledProbes.returnBoolean(v, s, slot);
  }

  public static int returnReference(Object v, ThreadState s, int slot, int cd) {
    if (--cd > 0) {
      return cd;
    }
    return SampledProbes.returnReference(v, s, slot);
  }

  // ---- scalar-pair probes: the new value of a local against its old value or another local ----

  public static int scalarInt(int newValue, int other, ThreadState s, int slot, int cd) {
    if (--cd > 0) {
      return cd;
    }
    return SampledProbes.scalarInt(newValue, other, s, slot);
  }

  public static int scalarLong(long newValue, long other, ThreadState s, int slot, int cd) {
    if (--cd > 0) {
      return cd;
    }
    return SampledProbes.scalarLong(newValue, other, s, slot);
  }
}
