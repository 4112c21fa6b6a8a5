package dev.whyslow.examples.eval;

import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteCounts;
import dev.whyslow.storage.StoredRun;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Evaluates one workload at a time: runs its good and bad inputs under the agent against the daemon
 * (at rate 1 for the exact table and the emulation pool, at the sampling rate for the real sampled
 * column), then ranks the root cause in every column and setting.
 */
public final class Evaluation {
  static final Duration STORE_TIMEOUT = Duration.ofSeconds(60);

  private final EvaluationSettings settings;
  private final EvaluationDaemon daemon;
  private final WorkloadLauncher launcher;
  private final RootCauseRanker ranker;
  private final PrintStream progress;

  public Evaluation(
      EvaluationSettings settings,
      EvaluationDaemon daemon,
      WorkloadLauncher launcher,
      PrintStream progress) {
    this.settings = settings;
    this.daemon = daemon;
    this.launcher = launcher;
    this.ranker = new RootCauseRanker(settings.topN());
    this.progress = progress;
  }

  public WorkloadResult evaluate(Workload workload) throws InterruptedException {
    long started = System.nanoTime();
    List<RootCause> causes = workload.rootCauses();
    String exactService = "eval-" + workload.name() + "-rate1";
    String sampledService = "eval-" + workload.name() + "-sampled";

    say(
        "%s: %d JVMs (%d per side at rate 1, %d per side at rate %s)",
        workload.name(),
        2 * (settings.poolPerSide() + settings.runsPerSide()),
        settings.poolPerSide(),
        settings.runsPerSide(),
        WorkloadLauncher.rate(settings.rate()));
    List<Collected> both =
        collect(
            workload,
            List.of(
                new Request(exactService, 1.0, settings.poolPerSide()),
                new Request(sampledService, settings.rate(), settings.runsPerSide())));
    List<StoredRun> pool = both.get(0).runs();
    Map<Long, Site> sites = both.get(0).sites();
    List<StoredRun> sampledRuns = both.get(1).runs();
    requireMarkersMatchObservedSites(workload, causes, pool, sites);

    Map<Column, RootCauseRanker.Ranked> exact = new EnumMap<>(Column.class);
    List<StoredRun> exactRuns = withSeedsUpTo(pool, settings.runsPerSide());
    for (Column column : settings.columns()) {
      exact.put(column, ranker.rank(exactService, column, exactRuns, sites, causes));
    }
    say("%s: rate 1 ranks %s", workload.name(), cells(exact));

    Map<Column, RootCauseRanker.Ranked> sampled = new EnumMap<>(Column.class);
    Map<Long, Site> sampledSites = both.get(1).sites();
    for (Column column : expressibleColumns(causes)) {
      sampled.put(column, ranker.rank(sampledService, column, sampledRuns, sampledSites, causes));
    }
    say(
        "%s: rate %s with %d real runs per side ranks %s",
        workload.name(),
        WorkloadLauncher.rate(settings.rate()),
        settings.runsPerSide(),
        cells(sampled));

    Map<Integer, Map<Column, List<Rank>>> emulated = emulate(workload, causes, pool, sites);
    long good = medianMicros(both.get(1).outcomes(), false);
    long bad = medianMicros(both.get(1).outcomes(), true);
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    say("%s: done in %d s", workload.name(), took.toSeconds());
    return new WorkloadResult(workload, causes, exact, sampled, emulated, good, bad, took);
  }

  /**
   * Runs to collect for one service.
   *
   * @param service the service name the runs are stored under
   * @param rate the agent's sampling rate
   * @param perSide good and bad inputs, seeds 1 to perSide each
   */
  public record Request(String service, double rate, int perSide) {}

  /** The stored runs and site table of one service, and how long each input's work took. */
  public record Collected(
      List<StoredRun> runs, Map<Long, Site> sites, List<WorkloadLauncher.Outcome> outcomes) {}

  /**
   * Runs {@code workload}'s good and bad inputs for every request (all JVMs in one batch, so the
   * launcher keeps both cores busy) and reads what the daemon stored for each.
   */
  public List<Collected> collect(Workload workload, List<Request> requests)
      throws InterruptedException {
    List<WorkloadLauncher.Launch> launches = new ArrayList<>();
    for (Request request : requests) {
      for (int seed = 1; seed <= request.perSide(); seed++) {
        launches.add(
            new WorkloadLauncher.Launch(workload, false, seed, request.rate(), request.service()));
        launches.add(
            new WorkloadLauncher.Launch(workload, true, seed, request.rate(), request.service()));
      }
    }
    List<WorkloadLauncher.Outcome> outcomes = launcher.runAll(launches);
    List<Collected> collected = new ArrayList<>();
    for (Request request : requests) {
      List<WorkloadLauncher.Outcome> own = new ArrayList<>();
      for (WorkloadLauncher.Outcome outcome : outcomes) {
        if (outcome.launch().service().equals(request.service())) {
          own.add(outcome);
        }
      }
      List<StoredRun> runs;
      try {
        runs = daemon.awaitRuns(request.service(), 2 * request.perSide(), STORE_TIMEOUT);
      } catch (IllegalStateException e) {
        throw new IllegalStateException(e.getMessage() + missing(request, own), e);
      }
      collected.add(new Collected(inInputOrder(runs), daemon.sites(request.service()), own));
    }
    return collected;
  }

  /**
   * The runs good before bad, each side by seed: the store keeps them in the order they arrived,
   * which the JVMs' finishing order decides, and ΔLDA's sweeps depend on the order of their runs.
   */
  static List<StoredRun> inInputOrder(List<StoredRun> runs) {
    List<StoredRun> sorted = new ArrayList<>(runs);
    sorted.sort(
        Comparator.comparing((StoredRun run) -> run.origin().instance().startsWith("bad-"))
            .thenComparingLong(EmulatedRuns::seedOf));
    return sorted;
  }

  /** Which inputs' runs did not arrive, with what their agents said. */
  private String missing(Request request, List<WorkloadLauncher.Outcome> outcomes) {
    Set<String> stored = new HashSet<>();
    for (StoredRun run : daemon.runs(request.service())) {
      stored.add(run.origin().instance());
    }
    StringBuilder text = new StringBuilder();
    for (WorkloadLauncher.Outcome outcome : outcomes) {
      if (!stored.contains(outcome.launch().instance())) {
        text.append("\nmissing ")
            .append(outcome.launch().instance())
            .append(", its stderr:\n")
            .append(outcome.stderr());
      }
    }
    return text.toString();
  }

  private Map<Integer, Map<Column, List<Rank>>> emulate(
      Workload workload, List<RootCause> causes, List<StoredRun> pool, Map<Long, Site> sites) {
    EmulatedRuns emulation = new EmulatedRuns(pool, sites, settings.rate(), settings.runsPerSide());
    String service = "eval-" + workload.name() + "-emulated";
    Map<Integer, Map<Column, List<Rank>>> emulated = new LinkedHashMap<>();
    for (int count : settings.emulatedRunCounts()) {
      Map<Column, List<Rank>> byColumn = new EnumMap<>(Column.class);
      for (int trial = 1; trial <= settings.trials(); trial++) {
        SplittableRandom random =
            new SplittableRandom(EmulatedRuns.trialSeed(workload, count, trial));
        List<StoredRun> runs = emulation.draw(count, random);
        for (Column column : expressibleColumns(causes)) {
          Rank rank = ranker.rank(service, column, runs, sites, causes).rank();
          byColumn.computeIfAbsent(column, c -> new ArrayList<>()).add(rank);
        }
      }
      emulated.put(count, byColumn);
      say("%s: %d emulated runs per side ranks %s", workload.name(), count, summaries(byColumn));
    }
    return emulated;
  }

  private List<Column> expressibleColumns(List<RootCause> causes) {
    List<Column> columns = new ArrayList<>();
    for (Column column : settings.columns()) {
      if (RootCauseRanker.expressible(column, causes)) {
        columns.add(column);
      }
    }
    return columns;
  }

  static List<StoredRun> withSeedsUpTo(List<StoredRun> runs, int maxSeed) {
    List<StoredRun> kept = new ArrayList<>();
    for (StoredRun run : runs) {
      if (EmulatedRuns.seedOf(run) <= maxSeed) {
        kept.add(run);
      }
    }
    return kept;
  }

  /**
   * Every marker must name a predicate the agent reported and the runs observed: a marker that
   * matches nothing (a moved line, a wrong kind or outcome) would make every cell read ">top".
   */
  static void requireMarkersMatchObservedSites(
      Workload workload, List<RootCause> causes, List<StoredRun> runs, Map<Long, Site> sites) {
    Set<Long> observed = new HashSet<>();
    for (StoredRun run : runs) {
      for (SiteCounts counts : run.run().sites()) {
        observed.add(counts.siteKey());
      }
    }
    for (RootCause cause : causes) {
      boolean found = false;
      for (Site site : sites.values()) {
        for (int p = 0; p < site.kind().predicateCount() && !found; p++) {
          found = observed.contains(site.key()) && cause.matches(site, p);
        }
        if (found) {
          break;
        }
      }
      if (!found) {
        throw new IllegalStateException(
            workload.name()
                + ": root cause marker "
                + cause.describe()
                + " matches no predicate of a site the agent observed; check the marker's line,"
                + " kind and predicate name against the agent's site table (option dump=FILE)");
      }
    }
  }

  private static long medianMicros(List<WorkloadLauncher.Outcome> outcomes, boolean bad) {
    List<Long> times = new ArrayList<>();
    for (WorkloadLauncher.Outcome outcome : outcomes) {
      if (outcome.launch().bad() == bad) {
        times.add(outcome.elapsedMicros());
      }
    }
    if (times.isEmpty()) {
      return 0;
    }
    times.sort(null);
    return times.get(times.size() / 2);
  }

  private static String cells(Map<Column, RootCauseRanker.Ranked> ranks) {
    StringBuilder text = new StringBuilder();
    ranks.forEach(
        (column, ranked) ->
            text.append(column.heading()).append('=').append(ranked.rank().cell()).append(' '));
    return text.toString().trim();
  }

  private static String summaries(Map<Column, List<Rank>> ranks) {
    StringBuilder text = new StringBuilder();
    ranks.forEach(
        (column, trials) ->
            text.append(column.heading()).append('=').append(Rank.summary(trials)).append(' '));
    return text.toString().trim();
  }

  private void say(String format, Object... args) {
    progress.println("[evaluate] " + String.format(java.util.Locale.ROOT, format, args));
  }
}
