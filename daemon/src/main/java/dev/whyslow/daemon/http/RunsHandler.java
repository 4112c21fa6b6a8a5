package dev.whyslow.daemon.http;

import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.RunKind;
import dev.whyslow.storage.RunIds;
import dev.whyslow.storage.RunQuery;
import dev.whyslow.storage.StoredRun;
import dev.whyslow.storage.WhyslowStore;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * {@code GET /api/v1/runs?service=&from=&to=&instance=&version=&unitType=&kind=&label=&limit=
 * &detail=} and {@code GET /api/v1/runs/{id}}. Runs come oldest first; {@code detail=true} adds the
 * per-site counts.
 */
public final class RunsHandler implements ApiRoutes {
  /** The most runs one request may ask for. */
  public static final int MAX_LIMIT = 100_000;

  private final WhyslowStore store;

  public RunsHandler(WhyslowStore store) {
    this.store = store;
  }

  /** The body of a run listing. */
  public record RunsView(int count, int limit, List<Views.RunView> runs) {}

  @Override
  public void register(HttpRouter router) {
    router.get("/api/v1/runs", this::list);
    router.get("/api/v1/runs/{id}", this::one);
  }

  private ApiResponse list(ApiRequest request) {
    request.allowOnly(
        Set.of(
            "service",
            "from",
            "to",
            "instance",
            "version",
            "unitType",
            "kind",
            "label",
            "limit",
            "detail"));
    RunQuery query = query(request);
    boolean detail = flag(request, "detail");
    List<Views.RunView> runs =
        store.runs(query).stream().map(r -> Views.RunView.of(r, detail)).toList();
    return ApiResponse.json(new RunsView(runs.size(), query.limit(), runs));
  }

  private ApiResponse one(ApiRequest request) {
    String text = request.pathParam("id");
    long id;
    try {
      id = RunIds.parse(text);
    } catch (IllegalArgumentException e) {
      throw ApiException.badParameter(
          "id", text, "a run id is 16 hex digits as listed by /api/v1/runs");
    }
    StoredRun run =
        store
            .run(id)
            .orElseThrow(
                () ->
                    ApiException.notFound(
                        "no run " + text + "; it may have passed retention, or the id is wrong"));
    return ApiResponse.json(Views.RunView.of(run, true));
  }

  /** The filters of {@code /api/v1/runs}, shared with labelling by query. */
  static RunQuery query(ApiRequest request) {
    RunQuery query = RunQuery.all().withLimit(RunQuery.DEFAULT_LIMIT);
    long from = request.param("from").map(v -> TimeParam.parse("from", v)).orElse(0L);
    long to = request.param("to").map(v -> TimeParam.parse("to", v)).orElse(Long.MAX_VALUE);
    if (to <= from) {
      throw ApiException.badParameter(
          "to",
          request.param("to").orElse(""),
          "must be after from=" + request.param("from").orElse(""));
    }
    query = query.withWindow(from, to);
    query = apply(query, request.param("service"), RunQuery::withService);
    query = apply(query, request.param("instance"), RunQuery::withInstance);
    query = apply(query, request.param("version"), RunQuery::withServiceVersion);
    query = apply(query, request.param("unitType"), RunQuery::withUnitType);
    Optional<String> kind = request.param("kind");
    if (kind.isPresent()) {
      query = query.withKind(kind(kind.get()));
    }
    Optional<String> label = request.param("label");
    if (label.isPresent()) {
      query = query.withLabel(label("label", label.get()));
    }
    Optional<String> limit = request.param("limit");
    if (limit.isPresent()) {
      query = query.withLimit(limit(limit.get()));
    }
    return query;
  }

  private static RunQuery apply(
      RunQuery query, Optional<String> value, BiFunction<RunQuery, String, RunQuery> with) {
    return value.map(v -> with.apply(query, v)).orElse(query);
  }

  static RunKind kind(String text) {
    try {
      return RunKind.valueOf(text.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw ApiException.badParameter("kind", text, "use unit or process");
    }
  }

  static Label label(String name, String text) {
    try {
      return Label.parse(text);
    } catch (IllegalArgumentException e) {
      throw ApiException.badParameter(name, text, "use success, failure or do-not-care");
    }
  }

  private static int limit(String text) {
    try {
      int limit = Integer.parseInt(text);
      if (limit >= 1 && limit <= MAX_LIMIT) {
        return limit;
      }
    } catch (NumberFormatException e) {
      // fall through to the message below
    }
    throw ApiException.badParameter("limit", text, "a whole number from 1 to " + MAX_LIMIT);
  }

  private static boolean flag(ApiRequest request, String name) {
    Optional<String> value = request.param(name);
    if (value.isEmpty()) {
      return false;
    }
    return switch (value.get().toLowerCase(Locale.ROOT)) {
      case "true", "1", "yes" -> true;
      case "false", "0", "no" -> false;
      default -> throw ApiException.badParameter(name, value.get(), "use true or false");
    };
  }
}
