package dev.whyslow.daemon.agent;

import dev.whyslow.daemon.metrics.DaemonMetrics;
import dev.whyslow.protocol.AgentStats;
import dev.whyslow.protocol.ErrorCode;
import dev.whyslow.protocol.ErrorMessage;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteBatch;
import dev.whyslow.protocol.SiteCounts;
import dev.whyslow.protocol.UnitHistogram;
import dev.whyslow.protocol.UnitStats;
import dev.whyslow.protocol.UnitTypeInfo;
import dev.whyslow.protocol.Violation;
import dev.whyslow.storage.RunOrigin;
import dev.whyslow.storage.WhyslowStore;
import io.netty.channel.Channel;
import java.lang.System.Logger.Level;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What happens to agent data after decoding: sites, runs, agent statistics, unit statistics,
 * violations and unit types are queued on the {@link IngestQueue} and written to the store there,
 * never on an event loop. Run batches are validated on the same thread, right before writing,
 * against the sites stored so far.
 */
public final class IngestWriter {
  private static final System.Logger LOG = System.getLogger(IngestWriter.class.getName());

  private final WhyslowStore store;
  private final IngestQueue queue;
  private final DaemonMetrics metrics;
  private final AgentRegistry registry;
  private final ErrorReplies errors;
  private final SiteCatalog catalog;
  private final RunValidator validator;
  // Last statistics per agent instance, so cumulative agent counters become increments. Bounded:
  // an instance that fell out is compared with what the store kept for it.
  private final Map<RunOrigin, AgentStats> lastStats =
      new LinkedHashMap<>(64, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<RunOrigin, AgentStats> eldest) {
          return size() > 10_000;
        }
      };

  public IngestWriter(
      WhyslowStore store,
      IngestQueue queue,
      DaemonMetrics metrics,
      AgentRegistry registry,
      ErrorReplies errors) {
    this.store = store;
    this.queue = queue;
    this.metrics = metrics;
    this.registry = registry;
    this.errors = errors;
    this.catalog = new SiteCatalog(store);
    this.validator = new RunValidator(catalog);
  }

  public void sites(Channel channel, ConnectedAgent agent, SiteBatch batch) {
    long cost = 64;
    for (Site site : batch.sites()) {
      cost +=
          96
              + 2L * (site.className().length() + site.methodName().length())
              + 2L
                  * (site.descriptor().length()
                      + site.sourceFile().length()
                      + site.detail().length());
    }
    submit(
        channel,
        cost,
        () -> {
          List<Site> sites = batch.sites();
          long started = System.nanoTime();
          store.putSites(agent.service(), sites);
          metrics.recordWrite(System.nanoTime() - started);
          catalog.added(agent.service(), sites);
          metrics.sitesStored(sites.size());
        });
  }

  public void runs(Channel channel, ConnectedAgent agent, List<Run> runs) {
    long cost = 64;
    for (Run run : runs) {
      cost += 128 + 2L * run.unitType().length();
      for (SiteCounts c : run.sites()) {
        cost += 48 + 8L * c.trueCounts().length;
      }
    }
    submit(
        channel,
        cost,
        () -> {
          Optional<ErrorMessage> problem = validator.validate(agent.origin(), runs);
          if (problem.isPresent()) {
            errors.reject(channel, problem.get().code(), problem.get().message());
            return;
          }
          long started = System.nanoTime();
          store.putRuns(agent.origin(), runs);
          metrics.recordWrite(System.nanoTime() - started);
          metrics.runsStored(runs.size());
        });
  }

  public void stats(Channel channel, ConnectedAgent agent, AgentStats stats) {
    registry.updateStats(agent, stats);
    submit(
        channel,
        256,
        () -> {
          RunOrigin origin = agent.origin();
          AgentStats previous = lastStats.get(origin);
          if (previous == null) {
            previous = store.agentStats(origin).orElse(null);
          }
          store.putAgentStats(origin, stats);
          lastStats.put(origin, stats);
          metrics.agentCounters(
              origin.service(),
              increase(previous == null ? 0 : previous.runsDropped(), stats.runsDropped()),
              increase(previous == null ? 0 : previous.samplesRecorded(), stats.samplesRecorded()));
        });
  }

  /** Unit statistics: stored per unit type and added to the unit duration metrics. */
  public void unitStats(Channel channel, ConnectedAgent agent, UnitStats stats) {
    long cost = 64 + stats.histograms().size() * (256L + UnitHistogram.BUCKETS * 8L);
    submit(
        channel,
        cost,
        () -> {
          Optional<ErrorMessage> problem = UnitValidator.unitStats(agent.origin(), stats);
          if (problem.isPresent()) {
            errors.reject(channel, problem.get().code(), problem.get().message());
            return;
          }
          long started = System.nanoTime();
          store.putUnitStats(agent.origin(), stats);
          metrics.recordWrite(System.nanoTime() - started);
          for (UnitHistogram h : stats.histograms()) {
            metrics.units().histogram(agent.service(), h);
          }
        });
  }

  /** Violations: stored with their stacks and counted per unit type. */
  public void violations(Channel channel, ConnectedAgent agent, List<Violation> violations) {
    long cost = 64;
    for (Violation v : violations) {
      cost += 192 + 2L * (v.unitType().length() + v.thread().length());
      for (String frame : v.stack()) {
        cost += 48 + 2L * frame.length();
      }
    }
    submit(
        channel,
        cost,
        () -> {
          Optional<ErrorMessage> problem = UnitValidator.violations(agent.origin(), violations);
          if (problem.isPresent()) {
            errors.reject(channel, problem.get().code(), problem.get().message());
            return;
          }
          long started = System.nanoTime();
          store.putViolations(agent.origin(), violations);
          metrics.recordWrite(System.nanoTime() - started);
          Map<String, Long> perType = new LinkedHashMap<>();
          violations.forEach(v -> perType.merge(v.unitType(), 1L, Long::sum));
          perType.forEach((type, n) -> metrics.units().violations(agent.service(), type, n));
        });
  }

  /** What the agent's training learned of its unit types. */
  public void unitTypes(Channel channel, ConnectedAgent agent, List<UnitTypeInfo> types) {
    long cost = 64;
    for (UnitTypeInfo t : types) {
      cost += 128 + 2L * (t.name().length() + t.entryPoint().length());
      for (String c : t.contexts()) {
        cost += 48 + 2L * c.length();
      }
      for (String g : t.guardMethods()) {
        cost += 48 + 2L * g.length();
      }
    }
    submit(
        channel,
        cost,
        () -> {
          Optional<ErrorMessage> problem = UnitValidator.unitTypes(types);
          if (problem.isPresent()) {
            errors.reject(channel, problem.get().code(), problem.get().message());
            return;
          }
          store.putUnitTypes(agent.service(), types);
        });
  }

  /** Counters restart at zero when the agent's JVM restarts; a drop means "all of it is new". */
  static long increase(long previous, long current) {
    return current >= previous ? current - previous : current;
  }

  private void submit(Channel channel, long cost, Runnable write) {
    boolean queued =
        queue.submit(
            channel,
            cost,
            () -> {
              try {
                write.run();
              } catch (RuntimeException e) {
                LOG.log(
                    Level.ERROR, "could not store agent data from " + channel.remoteAddress(), e);
                errors.reject(
                    channel,
                    ErrorCode.INTERNAL,
                    "whyslowd could not store this batch ("
                        + e.getMessage()
                        + "); it was not stored, check the daemon's log and storage");
              }
            });
    if (!queued) {
      errors.fatal(channel, ErrorCode.INTERNAL, "whyslowd is shutting down; reconnect later");
    }
  }
}
