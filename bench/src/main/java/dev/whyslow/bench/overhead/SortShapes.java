package dev.whyslow.bench.overhead;

import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.bootstrap.ThreadState;

/**
 * {@code CpuWorkload}'s quicksort by hand in the shapes the agent's instrumentation can take, one
 * element added at a time, so {@link SortShapesBenchmark} can say what each costs. Every shape
 * sorts exactly as the plain one does and keeps an exact evaluation count (see {@link
 * CpuWorkloadFloor}); where a sample falls only the count is kept, which does not change the cost
 * at one evaluation in 10,000.
 */
final class SortShapes {
  /** The benchmark thread's state, for {@link #staticState}. */
  private static final ThreadState MAIN_STATE = Probes.state();

  private SortShapes() {}

  /** One way of writing the sort. */
  interface Shape {
    void sort(int[] a, int lo, int hi);
  }

  /** As javac wrote it. */
  static void plain(int[] a, int lo, int hi) {
    while (lo < hi) {
      int pivot = a[(lo + hi) >>> 1];
      int i = lo;
      int j = hi;
      while (i <= j) {
        while (a[i] < pivot) {
          i++;
        }
        while (a[j] > pivot) {
          j--;
        }
        if (i <= j) {
          int t = a[i];
          a[i] = a[j];
          a[j] = t;
          i++;
          j--;
        }
      }
      if (j - lo < hi - i) {
        plain(a, lo, j);
        lo = i;
      } else {
        plain(a, i, hi);
        hi = j;
      }
    }
  }

  /** The floor: {@link CpuWorkloadFloor#quickSort}, a static countdown and counted scans. */
  static void floor(int[] a, int lo, int hi) {
    CpuWorkloadFloor.quickSort(a, lo, hi);
  }

  /** The floor with the thread's state fetched at every call and the countdown in its field. */
  static void threadState(int[] a, int lo, int hi) {
    ThreadState s = Probes.state();
    int cd = s.countdown;
    while (true) {
      cd--;
      if (lo >= hi) {
        break;
      }
      int pivot = a[(lo + hi) >>> 1];
      int i = lo;
      int j = hi;
      while (true) {
        cd--;
        if (i > j) {
          break;
        }
        int settle = cd + i - j - 3;
        while (a[i] < pivot) {
          i++;
        }
        while (a[j] > pivot) {
          j--;
        }
        cd = settle - i + j;
        if (cd <= 0) {
          cd = sampled(cd);
        }
        if (i <= j) {
          int t = a[i];
          a[i] = a[j];
          a[j] = t;
          i++;
          j--;
        }
      }
      cd--;
      s.countdown = cd;
      if (j - lo < hi - i) {
        threadState(a, lo, j);
        lo = i;
      } else {
        threadState(a, i, hi);
        hi = j;
      }
      cd = s.countdown;
    }
    s.countdown = cd;
  }

  /**
   * {@link #threadState} with one state fetched once for good: what the lookup at each call costs
   * (single-threaded only, so a benchmark shape and never the agent's).
   */
  static void staticState(int[] a, int lo, int hi) {
    ThreadState s = MAIN_STATE;
    int cd = s.countdown;
    while (true) {
      cd--;
      if (lo >= hi) {
        break;
      }
      int pivot = a[(lo + hi) >>> 1];
      int i = lo;
      int j = hi;
      while (true) {
        cd--;
        if (i > j) {
          break;
        }
        int settle = cd + i - j - 3;
        while (a[i] < pivot) {
          i++;
        }
        while (a[j] > pivot) {
          j--;
        }
        cd = settle - i + j;
        if (cd <= 0) {
          cd = sampled(cd);
        }
        if (i <= j) {
          int t = a[i];
          a[i] = a[j];
          a[j] = t;
          i++;
          j--;
        }
      }
      cd--;
      s.countdown = cd;
      if (j - lo < hi - i) {
        staticState(a, lo, j);
        lo = i;
      } else {
        staticState(a, i, hi);
        hi = j;
      }
      cd = s.countdown;
    }
    s.countdown = cd;
  }

  /**
   * {@link #threadState} with the state looked up once, at the outer call, and passed down the
   * recursion as an argument: what an instrumented callee would get from an instrumented caller.
   */
  static void stateParam(int[] a, int lo, int hi) {
    stateParam(a, lo, hi, Probes.state());
  }

  private static void stateParam(int[] a, int lo, int hi, ThreadState s) {
    int cd = s.countdown;
    while (true) {
      cd--;
      if (lo >= hi) {
        break;
      }
      int pivot = a[(lo + hi) >>> 1];
      int i = lo;
      int j = hi;
      while (true) {
        cd--;
        if (i > j) {
          break;
        }
        int settle = cd + i - j - 3;
        while (a[i] < pivot) {
          i++;
        }
        while (a[j] > pivot) {
          j--;
        }
        cd = settle - i + j;
        if (cd <= 0) {
          cd = sampled(cd);
        }
        if (i <= j) {
          int t = a[i];
          a[i] = a[j];
          a[j] = t;
          i++;
          j--;
        }
      }
      cd--;
      s.countdown = cd;
      if (j - lo < hi - i) {
        stateParam(a, lo, j, s);
        lo = i;
      } else {
        stateParam(a, i, hi, s);
        hi = j;
      }
      cd = s.countdown;
    }
    s.countdown = cd;
  }

  /** {@link #threadState} with the depth count stepped on the field at entry and exit. */
  static void depthField(int[] a, int lo, int hi) {
    ThreadState s = Probes.state();
    s.depth++;
    int cd = s.countdown;
    while (true) {
      cd--;
      if (lo >= hi) {
        break;
      }
      int pivot = a[(lo + hi) >>> 1];
      int i = lo;
      int j = hi;
      while (true) {
        cd--;
        if (i > j) {
          break;
        }
        int settle = cd + i - j - 3;
        while (a[i] < pivot) {
          i++;
        }
        while (a[j] > pivot) {
          j--;
        }
        cd = settle - i + j;
        if (cd <= 0) {
          cd = sampled(cd);
        }
        if (i <= j) {
          int t = a[i];
          a[i] = a[j];
          a[j] = t;
          i++;
          j--;
        }
      }
      cd--;
      s.countdown = cd;
      if (j - lo < hi - i) {
        depthField(a, lo, j);
        lo = i;
      } else {
        depthField(a, i, hi);
        hi = j;
      }
      cd = s.countdown;
    }
    s.countdown = cd;
    s.depth--;
  }

  /** {@link #threadState} with the frame's depth kept in a local and put back at the exit. */
  static void depthLocal(int[] a, int lo, int hi) {
    ThreadState s = Probes.state();
    int d = s.depth + 1;
    s.depth = d;
    int cd = s.countdown;
    while (true) {
      cd--;
      if (lo >= hi) {
        break;
      }
      int pivot = a[(lo + hi) >>> 1];
      int i = lo;
      int j = hi;
      while (true) {
        cd--;
        if (i > j) {
          break;
        }
        int settle = cd + i - j - 3;
        while (a[i] < pivot) {
          i++;
        }
        while (a[j] > pivot) {
          j--;
        }
        cd = settle - i + j;
        if (cd <= 0) {
          cd = sampled(cd);
        }
        if (i <= j) {
          int t = a[i];
          a[i] = a[j];
          a[j] = t;
          i++;
          j--;
        }
      }
      cd--;
      s.countdown = cd;
      if (j - lo < hi - i) {
        depthLocal(a, lo, j);
        lo = i;
      } else {
        depthLocal(a, i, hi);
        hi = j;
      }
      cd = s.countdown;
    }
    s.countdown = cd;
    s.depth = d - 1;
  }

  /** {@link #threadState} with a decrement in every scan iteration, settled after each scan. */
  static void scanDecrements(int[] a, int lo, int hi) {
    ThreadState s = Probes.state();
    int cd = s.countdown;
    while (true) {
      cd--;
      if (lo >= hi) {
        break;
      }
      int pivot = a[(lo + hi) >>> 1];
      int i = lo;
      int j = hi;
      while (true) {
        cd--;
        if (i > j) {
          break;
        }
        while (true) {
          cd--;
          if (a[i] >= pivot) {
            break;
          }
          i++;
        }
        if (cd <= 0) {
          cd = sampled(cd);
        }
        while (true) {
          cd--;
          if (a[j] <= pivot) {
            break;
          }
          j--;
        }
        if (cd <= 0) {
          cd = sampled(cd);
        }
        cd--;
        if (i <= j) {
          int t = a[i];
          a[i] = a[j];
          a[j] = t;
          i++;
          j--;
        }
      }
      cd--;
      s.countdown = cd;
      if (j - lo < hi - i) {
        scanDecrements(a, lo, j);
        lo = i;
      } else {
        scanDecrements(a, i, hi);
        hi = j;
      }
      cd = s.countdown;
    }
    s.countdown = cd;
  }

  /** The agent's fast copy today: the thread's state, scan decrements and a check per header. */
  static void agentFastCopy(int[] a, int lo, int hi) {
    ThreadState s = Probes.state();
    int d = s.depth + 1;
    s.depth = d;
    int cd = s.countdown;
    while (true) {
      if (cd <= 1) {
        cd = sampled(cd);
      }
      cd--;
      if (lo >= hi) {
        break;
      }
      int pivot = a[(lo + hi) >>> 1];
      int i = lo;
      int j = hi;
      while (true) {
        if (cd <= 2) {
          cd = sampled(cd);
        }
        cd--;
        if (i > j) {
          break;
        }
        while (true) {
          cd--;
          if (a[i] >= pivot) {
            break;
          }
          i++;
        }
        if (cd <= 0) {
          cd = sampled(cd);
        }
        while (true) {
          cd--;
          if (a[j] <= pivot) {
            break;
          }
          j--;
        }
        if (cd <= 0) {
          cd = sampled(cd);
        }
        cd--;
        if (i <= j) {
          int t = a[i];
          a[i] = a[j];
          a[j] = t;
          i++;
          j--;
        }
      }
      cd--;
      s.countdown = cd;
      if (j - lo < hi - i) {
        agentFastCopy(a, lo, j);
        lo = i;
      } else {
        agentFastCopy(a, i, hi);
        hi = j;
      }
      cd = s.countdown;
    }
    s.countdown = cd;
    s.depth = d - 1;
  }

  /** Counts the samples that fell at or before this point; returns the next countdown. */
  private static int sampled(int cd) {
    long next = CpuWorkloadFloor.Countdown.sampled(cd);
    return (int) Math.min(next, Integer.MAX_VALUE);
  }
}
