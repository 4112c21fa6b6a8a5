package dev.whyslow.daemon.http;

import dev.whyslow.daemon.config.DurationText;
import dev.whyslow.daemon.diagnosis.CbiOptions;
import dev.whyslow.daemon.diagnosis.DeltaLdaOptions;
import dev.whyslow.daemon.diagnosis.DiagnosisOptions;
import dev.whyslow.daemon.diagnosis.DiagnosisReport;
import dev.whyslow.daemon.diagnosis.DiagnosisRequest;
import dev.whyslow.daemon.diagnosis.DiagnosisService;
import dev.whyslow.daemon.diagnosis.PredicateFilter;
import dev.whyslow.daemon.units.ThresholdService;
import dev.whyslow.protocol.RunKind;
import dev.whyslow.storage.RunQuery;
import dev.whyslow.storage.StoredRun;
import dev.whyslow.storage.StoredThreshold;
import dev.whyslow.storage.WhyslowStore;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code GET /api/v1/diagnosis?service=&from=&to=&instance=&version=&unitType=&kind=&model=
 * &predicates=&top=&confidence=&minSupport=&sweeps=&seed=&oneSided=}: ranks the predicates that
 * separate the failing runs from the successful ones of a service in a window. The run filters are
 * those of {@code /api/v1/runs} except {@code label} (a diagnosis compares both labels); {@code
 * model} is {@code cbi} (default) or {@code delta-lda}; {@code predicates} is a filter such as
 * {@code all}, {@code loop-branch} or {@code branch,return-numeric}; {@code oneSided} is ΔLDA's
 * significance for predicates seen in failing runs only (default 0.05, 1 keeps them all).
 */
public final class DiagnosisHandler implements ApiRoutes {
  /** Most runs one diagnosis reads; beyond it the newest are left out and the report says so. */
  public static final int MAX_RUNS = 200_000;

  private final WhyslowStore store;
  private final DiagnosisService service;
  private final ThresholdService thresholds;

  /** Without thresholds: a {@code unitType} diagnosis cannot say whether the type has one. */
  public DiagnosisHandler(WhyslowStore store, DiagnosisService service) {
    this(store, service, null);
  }

  /**
   * With {@code unitType}, only unit runs of that type are diagnosed, by the labels their agents
   * gave them from the type's threshold; the report says plainly when the type has no threshold yet
   * or no unit over it.
   */
  public DiagnosisHandler(
      WhyslowStore store, DiagnosisService service, ThresholdService thresholds) {
    this.store = store;
    this.service = service;
    this.thresholds = thresholds;
  }

  @Override
  public void register(HttpRouter router) {
    router.get("/api/v1/diagnosis", this::diagnose);
  }

  private ApiResponse diagnose(ApiRequest request) {
    request.allowOnly(
        Set.of(
            "service",
            "from",
            "to",
            "instance",
            "version",
            "unitType",
            "kind",
            "model",
            "predicates",
            "top",
            "confidence",
            "minSupport",
            "sweeps",
            "seed",
            "oneSided"));
    String name =
        request
            .param("service")
            .orElseThrow(() -> ApiException.badRequest("service is required, e.g. ?service=demo"));
    RunQuery query = RunsHandler.query(request).withLimit(MAX_RUNS + 1);
    Optional<String> unitType = request.param("unitType");
    if (unitType.isPresent() && request.param("kind").isEmpty()) {
      query = query.withKind(RunKind.UNIT);
    }
    List<StoredRun> runs = store.runs(query);
    boolean truncated = runs.size() > MAX_RUNS;
    if (truncated) {
      runs = runs.subList(0, MAX_RUNS);
    }
    DiagnosisRequest diagnosis =
        DiagnosisRequest.of(name, query.fromInclusiveMillis(), query.toExclusiveMillis())
            .withOptions(options(request));
    Optional<String> model = request.param("model");
    if (model.isPresent()) {
      if (!service.modelNames().contains(model.get())) {
        throw ApiException.badParameter("model", model.get(), "one of " + service.modelNames());
      }
      diagnosis = diagnosis.withModel(model.get());
    }
    Optional<String> predicates = request.param("predicates");
    if (predicates.isPresent()) {
      try {
        diagnosis = diagnosis.withFilter(PredicateFilter.parse(predicates.get()));
      } catch (IllegalArgumentException e) {
        throw ApiException.badParameter("predicates", predicates.get(), e.getMessage());
      }
    }
    Optional<String> top = request.param("top");
    if (top.isPresent()) {
      diagnosis = diagnosis.withTopN(intParam("top", top.get(), 1, 1000));
    }
    DiagnosisReport report = service.diagnose(diagnosis, runs, store.sites(name));
    if (unitType.isPresent()) {
      report = withUnitTypeReasons(report, name, unitType.get(), runs.size());
    }
    if (truncated) {
      report =
          withNote(
              report,
              "only the oldest "
                  + MAX_RUNS
                  + " runs of the window were used;"
                  + " narrow the window with from and to");
    }
    return ApiResponse.json(report);
  }

  private static DiagnosisOptions options(ApiRequest request) {
    CbiOptions cbi = CbiOptions.defaults();
    Optional<String> confidence = request.param("confidence");
    if (confidence.isPresent()) {
      try {
        cbi = cbi.withConfidence(Double.parseDouble(confidence.get()));
      } catch (IllegalArgumentException e) {
        throw ApiException.badParameter("confidence", confidence.get(), "a number in (0, 1)");
      }
    }
    Optional<String> support = request.param("minSupport");
    if (support.isPresent()) {
      cbi = cbi.withMinSupport(intParam("minSupport", support.get(), 1, 1_000_000));
    }
    DeltaLdaOptions lda = DeltaLdaOptions.defaults();
    Optional<String> sweeps = request.param("sweeps");
    if (sweeps.isPresent()) {
      try {
        lda = lda.withSweeps(intParam("sweeps", sweeps.get(), 1, 100_000));
      } catch (IllegalArgumentException e) {
        throw ApiException.badParameter("sweeps", sweeps.get(), e.getMessage());
      }
    }
    Optional<String> seed = request.param("seed");
    if (seed.isPresent()) {
      try {
        lda = lda.withSeed(Long.parseLong(seed.get()));
      } catch (NumberFormatException e) {
        throw ApiException.badParameter("seed", seed.get(), "a whole number");
      }
    }
    Optional<String> oneSided = request.param("oneSided");
    if (oneSided.isPresent()) {
      try {
        lda = lda.withOneSidedSignificance(Double.parseDouble(oneSided.get()));
      } catch (IllegalArgumentException e) {
        throw ApiException.badParameter(
            "oneSided", oneSided.get(), "a number in (0, 1]; 1 keeps every predicate");
      }
    }
    return DiagnosisOptions.defaults().withCbi(cbi).withDeltaLda(lda);
  }

  private static int intParam(String name, String text, int min, int max) {
    try {
      int value = Integer.parseInt(text);
      if (value >= min && value <= max) {
        return value;
      }
    } catch (NumberFormatException e) {
      // fall through to the message below
    }
    throw ApiException.badParameter(name, text, "a whole number from " + min + " to " + max);
  }

  /** Puts the unit type's own reasons first when its runs cannot be diagnosed. */
  private DiagnosisReport withUnitTypeReasons(
      DiagnosisReport r, String serviceName, String unitType, int runCount) {
    List<String> reasons = new java.util.ArrayList<>();
    Optional<StoredThreshold> threshold =
        thresholds == null ? Optional.empty() : thresholds.threshold(serviceName, unitType);
    if (runCount == 0) {
      reasons.add(
          "no unit runs of type '"
              + unitType
              + "' in the window; check the name with /api/v1/units?service="
              + serviceName);
    } else if (thresholds != null && threshold.isEmpty() && r.failingRuns() == 0) {
      reasons.add(
          "unit type '"
              + unitType
              + "' has no threshold yet (it needs "
              + thresholds.settings().minCount()
              + " units within "
              + DurationText.format(thresholds.settings().window())
              + "), so its units are labelled do-not-care and none failed");
    } else if (r.failingRuns() == 0) {
      reasons.add(
          "no unit of type '"
              + unitType
              + "' ran over its threshold"
              + threshold.map(t -> " of " + t.thresholdNanos() / 1_000_000.0 + " ms").orElse("")
              + " in the window: nothing failed, so there is nothing to diagnose");
    }
    if (reasons.isEmpty()) {
      return r;
    }
    reasons.addAll(r.insufficient());
    return copy(r, reasons, r.notes());
  }

  private static DiagnosisReport withNote(DiagnosisReport r, String note) {
    List<String> notes = new java.util.ArrayList<>(r.notes());
    notes.add(note);
    return copy(r, r.insufficient(), notes);
  }

  private static DiagnosisReport copy(
      DiagnosisReport r, List<String> insufficient, List<String> notes) {
    return new DiagnosisReport(
        r.service(),
        r.fromInclusiveMillis(),
        r.toExclusiveMillis(),
        r.model(),
        r.filter(),
        r.options(),
        r.successRuns(),
        r.failingRuns(),
        r.ignoredRuns(),
        r.samplingRates(),
        r.predicatesConsidered(),
        r.rankedPredicates(),
        r.predictors(),
        insufficient,
        notes);
  }
}
