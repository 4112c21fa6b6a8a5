package dev.whyslow.daemon.http;

import dev.whyslow.daemon.config.DurationText;
import dev.whyslow.daemon.config.ThresholdSettings;
import dev.whyslow.daemon.units.HistogramEstimates;
import dev.whyslow.daemon.units.ThresholdService;
import dev.whyslow.protocol.UnitHistogram;
import dev.whyslow.protocol.UnitTypeInfo;
import dev.whyslow.storage.StoredThreshold;
import dev.whyslow.storage.StoredUnitStats;
import dev.whyslow.storage.UnitHistograms;
import dev.whyslow.storage.UnitStatsQuery;
import dev.whyslow.storage.WhyslowStore;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code GET /api/v1/units?service=&from=&to=} (unit types with counts, mean, p99, violations and
 * threshold over the window, by default the threshold window up to now) and {@code GET
 * /api/v1/thresholds?service=} (the current thresholds and how they are computed).
 */
public final class UnitsHandler implements ApiRoutes {
  private final WhyslowStore store;
  private final ThresholdService thresholds;
  private final Clock clock;

  public UnitsHandler(WhyslowStore store, ThresholdService thresholds, Clock clock) {
    this.store = store;
    this.thresholds = thresholds;
    this.clock = clock;
  }

  /** The body of {@code /api/v1/units}. */
  public record UnitsBody(
      String service,
      String from,
      String to,
      long fromEpochMillis,
      long toEpochMillis,
      List<UnitViews.UnitView> units) {}

  /** The body of {@code /api/v1/thresholds}. */
  public record ThresholdsBody(
      String service,
      double k,
      String method,
      String window,
      long minCount,
      List<UnitViews.ThresholdView> thresholds) {}

  @Override
  public void register(HttpRouter router) {
    router.get("/api/v1/units", this::units);
    router.get("/api/v1/thresholds", this::thresholds);
  }

  private ApiResponse units(ApiRequest request) {
    request.allowOnly(Set.of("service", "from", "to"));
    String service = requiredService(request);
    long to = request.param("to").map(v -> TimeParam.parse("to", v)).orElse(clock.millis() + 1);
    long from =
        request
            .param("from")
            .map(v -> TimeParam.parse("from", v))
            .orElse(to - thresholds.settings().window().toMillis());
    if (to <= from) {
      throw ApiException.badParameter(
          "to", request.param("to").orElse(Long.toString(to)), "must be after from=" + from);
    }
    Map<String, List<UnitHistogram>> byType = new TreeMap<>();
    for (StoredUnitStats s : store.unitStats(UnitStatsQuery.of(service, from, to))) {
      byType.computeIfAbsent(s.unitType(), t -> new ArrayList<>()).add(s.histogram());
    }
    Map<String, UnitTypeInfo> infos = new TreeMap<>();
    store.unitTypes(service).forEach(i -> infos.put(i.name(), i));
    Map<String, StoredThreshold> current = new TreeMap<>();
    thresholds.thresholds(service).forEach(t -> current.put(t.unitType(), t));
    infos.keySet().forEach(t -> byType.putIfAbsent(t, List.of()));
    current.keySet().forEach(t -> byType.putIfAbsent(t, List.of()));
    List<UnitViews.UnitView> units = new ArrayList<>();
    for (Map.Entry<String, List<UnitHistogram>> e : byType.entrySet()) {
      UnitHistogram merged = UnitHistograms.merge(e.getKey(), e.getValue());
      HistogramEstimates est = new HistogramEstimates(merged);
      StoredThreshold t = current.get(e.getKey());
      units.add(
          new UnitViews.UnitView(
              e.getKey(),
              merged.count(),
              est.mean(),
              est.quantile(0.99),
              merged.maxNanos(),
              merged.violations(),
              t == null ? null : UnitViews.ThresholdView.of(t),
              infos.get(e.getKey())));
    }
    return ApiResponse.json(
        new UnitsBody(
            service,
            Instant.ofEpochMilli(from).toString(),
            Instant.ofEpochMilli(to).toString(),
            from,
            to,
            units));
  }

  private ApiResponse thresholds(ApiRequest request) {
    request.allowOnly(Set.of("service"));
    String service = requiredService(request);
    ThresholdSettings s = thresholds.settings();
    return ApiResponse.json(
        new ThresholdsBody(
            service,
            s.k(),
            s.method().spelling(),
            DurationText.format(s.window()),
            s.minCount(),
            thresholds.thresholds(service).stream().map(UnitViews.ThresholdView::of).toList()));
  }

  static String requiredService(ApiRequest request) {
    return request
        .param("service")
        .orElseThrow(
            () -> ApiException.badRequest("parameter 'service' is required, e.g. ?service=shop"));
  }
}
