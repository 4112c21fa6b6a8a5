package dev.whyslow.daemon.diagnosis;

import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteKeys;
import dev.whyslow.protocol.SiteKind;
import dev.whyslow.storage.StoredRun;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Turns stored runs into a {@link DiagnosisReport}: builds the predicate table with the request's
 * filter (or the model's default), ranks it, and words the top predictors for people. No I/O: the
 * caller reads the runs and sites from the store. Thread-safe: the models keep no state.
 *
 * <pre>{@code
 * List<StoredRun> runs = store.runs(RunQuery.forService("checkout").withWindow(from, to));
 * DiagnosisReport report = DiagnosisService.withDefaultModels()
 *     .diagnose(DiagnosisRequest.of("checkout", from, to).withModel("delta-lda"),
 *         runs, store.sites("checkout"));
 * }</pre>
 */
public final class DiagnosisService {
  private final Map<String, DiagnosisModel> models = new LinkedHashMap<>();

  public DiagnosisService(List<DiagnosisModel> models) {
    for (DiagnosisModel model : models) {
      if (this.models.putIfAbsent(model.name(), model) != null) {
        throw new IllegalArgumentException("two diagnosis models are named " + model.name());
      }
    }
    if (this.models.isEmpty()) {
      throw new IllegalArgumentException("a diagnosis service needs at least one model");
    }
  }

  /** CBI ({@code cbi}) and ΔLDA ({@code delta-lda}). */
  public static DiagnosisService withDefaultModels() {
    return new DiagnosisService(List.of(new CbiModel(), new DeltaLdaModel()));
  }

  public List<String> modelNames() {
    return List.copyOf(models.keySet());
  }

  /** The model called {@code name}; the error lists the known names. */
  public DiagnosisModel model(String name) {
    DiagnosisModel model = models.get(name.trim().toLowerCase(Locale.ROOT));
    if (model == null) {
      throw new IllegalArgumentException(
          "unknown diagnosis model '" + name + "': use " + String.join(" or ", models.keySet()));
    }
    return model;
  }

  /** Diagnoses {@code runs} with site metadata from {@code sites} (e.g. the store's list). */
  public DiagnosisReport diagnose(
      DiagnosisRequest request, List<StoredRun> runs, Collection<Site> sites) {
    Map<Long, Site> byKey = new HashMap<>();
    for (Site site : sites) {
      byKey.put(site.key(), site);
    }
    return diagnose(request, runs, byKey);
  }

  /** Diagnoses {@code runs} with site metadata by site key. */
  public DiagnosisReport diagnose(
      DiagnosisRequest request, List<StoredRun> runs, Map<Long, Site> sites) {
    DiagnosisModel model = model(request.model());
    PredicateFilter filter = request.filter().orElse(model.defaultFilter());
    PredicateTable table = PredicateTable.from(runs, sites, filter);
    Ranking ranking = model.rank(table, request.options());

    List<ReportedPredictor> predictors = new ArrayList<>();
    for (RankedPredicate ranked : ranking.predicates()) {
      if (predictors.size() == request.topN()) {
        break;
      }
      predictors.add(describe(table, ranked));
    }
    List<String> notes = new ArrayList<>(ranking.notes());
    List<Double> rates = table.samplingRates();
    if (rates.size() > 1) {
      notes.add(
          "runs were sampled at "
              + rates.size()
              + " different rates "
              + rates
              + ": predicates look true more often in densely sampled runs, so compare runs of one"
              + " rate when you can");
    }
    if (table.skippedEntryCount() > 0) {
      notes.add(
          table.skippedEntryCount()
              + " site entries were skipped because their predicate count contradicts the site's"
              + " kind (agent and daemon disagree about a site; check agent versions)");
    }
    return new DiagnosisReport(
        request.service(),
        request.fromInclusiveMillis(),
        request.toExclusiveMillis(),
        model.name(),
        filter.describe(),
        request.options(),
        table.successRunCount(),
        table.failingRunCount(),
        table.ignoredRunCount(),
        rates,
        table.predicateCount(),
        ranking.predicates().size(),
        predictors,
        ranking.insufficient(),
        notes);
  }

  static ReportedPredictor describe(PredicateTable table, RankedPredicate ranked) {
    int p = ranked.predicateId();
    Optional<Site> site = table.site(p);
    int index = ranked.predicateIndex();
    String key = SiteKeys.format(ranked.siteKey());
    FixHint hint =
        FixHint.forPredicate(
            site.map(Site::kind).orElse(null),
            index,
            ranked.counts(),
            table.branchTokens(p).orElse(null));
    if (site.isEmpty()) {
      return new ReportedPredictor(
          ranked.rank(),
          key,
          "",
          "",
          "",
          -1,
          "unknown",
          index,
          "predicate " + index,
          "site " + key + " (no metadata): predicate " + index,
          ranked.counts(),
          ranked.scores(),
          hint);
    }
    Site s = site.get();
    String predicate = s.kind().predicateName(index).trim();
    return new ReportedPredictor(
        ranked.rank(),
        key,
        s.className(),
        s.methodName(),
        s.sourceFile(),
        s.line(),
        s.kind().name().toLowerCase(Locale.ROOT).replace('_', '-'),
        index,
        predicate,
        s.location() + ": " + kindWords(s.kind()) + " \"" + predicate + "\"" + detail(s),
        ranked.counts(),
        ranked.scores(),
        hint);
  }

  private static String kindWords(SiteKind kind) {
    switch (kind) {
      case BRANCH:
        return "branch";
      case LOOP_BRANCH:
        return "loop branch";
      case SCALAR_PAIR:
        return "scalar pair";
      default:
        return "return";
    }
  }

  private static String detail(Site site) {
    return site.detail().isEmpty() ? "" : " (" + site.detail() + ")";
  }
}
