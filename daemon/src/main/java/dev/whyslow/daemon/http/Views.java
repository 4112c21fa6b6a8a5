package dev.whyslow.daemon.http;

import dev.whyslow.daemon.agent.AgentRegistry;
import dev.whyslow.daemon.agent.ConnectedAgent;
import dev.whyslow.protocol.AgentStats;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteCounts;
import dev.whyslow.protocol.SiteKeys;
import dev.whyslow.storage.RunIds;
import dev.whyslow.storage.StoredRun;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * The JSON shapes of the API. Keys and ids are 16 hex digits, times ISO-8601 with the epoch
 * milliseconds beside them, enums spelled as on the command line ({@code loop-branch}, {@code
 * do-not-care}).
 */
public final class Views {
  private Views() {}

  public static String spell(Enum<?> value) {
    return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** A probe site and its predicates in words. */
  public record SiteView(
      String key,
      String className,
      String method,
      String descriptor,
      String file,
      int line,
      String kind,
      int loopId,
      List<String> predicates,
      String detail,
      String location) {

    public static SiteView of(Site s) {
      return new SiteView(
          SiteKeys.format(s.key()),
          s.className(),
          s.methodName(),
          s.descriptor(),
          s.sourceFile(),
          s.line(),
          spell(s.kind()),
          s.loopId(),
          s.kind().predicates(),
          s.detail(),
          s.location());
    }
  }

  /** What one run saw at one site. */
  public record SiteCountsView(String site, long observed, long[] trueCounts) {
    public static SiteCountsView of(SiteCounts c) {
      return new SiteCountsView(SiteKeys.format(c.siteKey()), c.observed(), c.trueCounts());
    }
  }

  /** A stored run; {@code sites} only when detail was asked for. */
  public record RunView(
      String id,
      String service,
      String instance,
      String version,
      String kind,
      String start,
      long startEpochMillis,
      long durationNanos,
      String label,
      String unitType,
      double samplingRate,
      int siteCount,
      List<SiteCountsView> sites) {

    public static RunView of(StoredRun stored, boolean detail) {
      Run r = stored.run();
      return new RunView(
          RunIds.format(stored.runId()),
          stored.origin().service(),
          stored.origin().instance(),
          stored.origin().serviceVersion(),
          spell(r.kind()),
          Instant.ofEpochMilli(r.startEpochMillis()).toString(),
          r.startEpochMillis(),
          r.durationNanos(),
          r.label().spelling(),
          r.unitType(),
          r.samplingRate(),
          r.sites().size(),
          detail ? r.sites().stream().map(SiteCountsView::of).toList() : null);
    }
  }

  /** A connected agent and its latest statistics, if it sent any. */
  public record AgentView(
      String connectionId,
      String service,
      String instance,
      String version,
      String agentVersion,
      String remoteAddress,
      String connectedAt,
      AgentStats stats) {

    public static AgentView of(AgentRegistry.Snapshot snapshot) {
      ConnectedAgent a = snapshot.agent();
      return new AgentView(
          a.connectionId(),
          a.service(),
          a.origin().instance(),
          a.origin().serviceVersion(),
          a.agentVersion(),
          a.remoteAddress(),
          a.connectedAt().toString(),
          snapshot.latestStats().orElse(null));
    }
  }
}
