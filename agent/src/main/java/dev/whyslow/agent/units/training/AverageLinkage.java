package dev.whyslow.agent.units.training;

/**
 * Agglomerative clustering with weighted average linkage (UPGMA): the distance between two clusters
 * is the mean distance over all pairs of their units, each distinct trace counting as many units as
 * it stands for. Items of different groups (entry points) are never merged. Merging stops when the
 * closest pair is farther than the cut, unless there are still more clusters than allowed; ties go
 * to the pair with the smallest indices, so the result depends only on the input order.
 */
final class AverageLinkage {
  private AverageLinkage() {}

  /**
   * @param distance symmetric item distances
   * @param weights units per item
   * @param groups group of each item; items of different groups never share a cluster
   * @param cut merge while the closest pair is at most this far apart
   * @param maxClusters keep merging past the cut while there are more clusters than this
   * @return the cluster of each item, numbered by the smallest item index in each cluster, in order
   */
  static int[] cluster(
      double[][] distance, long[] weights, int[] groups, double cut, int maxClusters) {
    int n = weights.length;
    double[][] d = new double[n][];
    for (int i = 0; i < n; i++) {
      d[i] = distance[i].clone();
    }
    long[] w = weights.clone();
    boolean[] alive = new boolean[n];
    int[] parent = new int[n];
    for (int i = 0; i < n; i++) {
      alive[i] = true;
      parent[i] = i;
    }
    int clusters = n;
    while (clusters > 1) {
      int bi = -1;
      int bj = -1;
      double best = Double.POSITIVE_INFINITY;
      for (int i = 0; i < n; i++) {
        if (!alive[i]) {
          continue;
        }
        for (int j = i + 1; j < n; j++) {
          if (alive[j] && groups[i] == groups[j] && d[i][j] < best) {
            best = d[i][j];
            bi = i;
            bj = j;
          }
        }
      }
      if (bi < 0 || (best > cut && clusters <= maxClusters)) {
        break;
      }
      // Lance-Williams update for average linkage: the merged cluster keeps the smaller index.
      for (int k = 0; k < n; k++) {
        if (alive[k] && k != bi && k != bj) {
          double merged = (w[bi] * d[bi][k] + w[bj] * d[bj][k]) / (double) (w[bi] + w[bj]);
          d[bi][k] = merged;
          d[k][bi] = merged;
        }
      }
      w[bi] += w[bj];
      alive[bj] = false;
      parent[bj] = bi;
      clusters--;
    }
    int[] clusterOf = new int[n];
    int[] numberOfRoot = new int[n];
    java.util.Arrays.fill(numberOfRoot, -1);
    int next = 0;
    for (int i = 0; i < n; i++) {
      int root = i;
      while (parent[root] != root) {
        root = parent[root];
      }
      if (numberOfRoot[root] < 0) {
        numberOfRoot[root] = next++;
      }
      clusterOf[i] = numberOfRoot[root];
    }
    return clusterOf;
  }
}
