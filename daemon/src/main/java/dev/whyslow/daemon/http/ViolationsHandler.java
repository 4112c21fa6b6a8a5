package dev.whyslow.daemon.http;

import dev.whyslow.storage.StoredViolation;
import dev.whyslow.storage.ViolationIds;
import dev.whyslow.storage.ViolationQuery;
import dev.whyslow.storage.WhyslowStore;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code GET /api/v1/violations?service=&unitType=&from=&to=&limit=} (newest first, without stacks)
 * and {@code GET /api/v1/violations/{id}} (one, with its stack).
 */
public final class ViolationsHandler implements ApiRoutes {
  /** The most violations one request may ask for. */
  public static final int MAX_LIMIT = 10_000;

  private final WhyslowStore store;

  public ViolationsHandler(WhyslowStore store) {
    this.store = store;
  }

  /** The body of a violation listing. */
  public record ViolationsBody(int count, int limit, List<UnitViews.ViolationView> violations) {}

  @Override
  public void register(HttpRouter router) {
    router.get("/api/v1/violations", this::list);
    router.get("/api/v1/violations/{id}", this::one);
  }

  private ApiResponse list(ApiRequest request) {
    request.allowOnly(Set.of("service", "unitType", "from", "to", "limit"));
    ViolationQuery query = ViolationQuery.forService(UnitsHandler.requiredService(request));
    long from = request.param("from").map(v -> TimeParam.parse("from", v)).orElse(0L);
    long to = request.param("to").map(v -> TimeParam.parse("to", v)).orElse(Long.MAX_VALUE);
    if (to <= from) {
      throw ApiException.badParameter(
          "to", request.param("to").orElse(""), "must be after from=" + from);
    }
    query = query.withWindow(from, to);
    Optional<String> unitType = request.param("unitType");
    if (unitType.isPresent()) {
      query = query.withUnitType(unitType.get());
    }
    Optional<String> limit = request.param("limit");
    if (limit.isPresent()) {
      query = query.withLimit(limit(limit.get()));
    }
    List<UnitViews.ViolationView> list =
        store.violations(query).stream().map(v -> UnitViews.ViolationView.of(v, false)).toList();
    return ApiResponse.json(new ViolationsBody(list.size(), query.limit(), list));
  }

  private ApiResponse one(ApiRequest request) {
    String text = request.pathParam("id");
    long id;
    try {
      id = ViolationIds.parse(text);
    } catch (IllegalArgumentException e) {
      throw ApiException.badParameter(
          "id", text, "a violation id is 16 hex digits as listed by /api/v1/violations");
    }
    StoredViolation v =
        store
            .violation(id)
            .orElseThrow(
                () ->
                    ApiException.notFound(
                        "no violation "
                            + text
                            + "; it may have passed retention, or the id is wrong"));
    return ApiResponse.json(UnitViews.ViolationView.of(v, true));
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
}
