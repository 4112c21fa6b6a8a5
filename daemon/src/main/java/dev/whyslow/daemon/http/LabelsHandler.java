package dev.whyslow.daemon.http;

import dev.whyslow.protocol.Label;
import dev.whyslow.storage.RunIds;
import dev.whyslow.storage.RunQuery;
import dev.whyslow.storage.WhyslowStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code POST /api/v1/labels}: relabel runs by id ({@code {"label":"failure","runIds":[...]}}) or
 * by query ({@code {"label":"success","service":"checkout","from":...,"to":...,"instance":...,
 * "version":...,"unitType":...}}). Everything is validated before anything is written.
 */
public final class LabelsHandler implements ApiRoutes {
  private static final Set<String> FIELDS =
      Set.of("label", "runIds", "service", "from", "to", "instance", "version", "unitType");

  private final WhyslowStore store;

  public LabelsHandler(WhyslowStore store) {
    this.store = store;
  }

  /** The answer: how many runs now carry the label. */
  public record Relabelled(long relabelled) {}

  @Override
  public void register(HttpRouter router) {
    router.post("/api/v1/labels", this::relabel);
  }

  private ApiResponse relabel(ApiRequest request) {
    JsonBody body = new JsonBody(request.body(), FIELDS);
    Label label = RunsHandler.label("label", body.requiredString("label"));
    if (body.has("runIds")) {
      for (String field : List.of("service", "from", "to", "instance", "version", "unitType")) {
        if (body.has(field)) {
          throw ApiException.badRequest(
              "give either runIds or a query (service, from, to, ...), not both; found runIds and "
                  + field);
        }
      }
      List<Long> ids = new ArrayList<>();
      for (String text : body.strings("runIds")) {
        try {
          ids.add(RunIds.parse(text));
        } catch (IllegalArgumentException e) {
          throw ApiException.badParameter(
              "runIds", text, "a run id is 16 hex digits as listed by /api/v1/runs");
        }
      }
      if (ids.isEmpty()) {
        throw ApiException.badRequest("runIds is empty; list at least one run id");
      }
      return ApiResponse.json(new Relabelled(store.relabel(ids, label)));
    }
    if (!body.has("service")) {
      throw ApiException.badRequest(
          "say which runs: either \"runIds\": [...] or \"service\" with optional from, to,"
              + " instance, version, unitType");
    }
    RunQuery query = RunQuery.all().withService(body.requiredString("service"));
    long from = body.time("from").orElse(0L);
    long to = body.time("to").orElse(Long.MAX_VALUE);
    if (to <= from) {
      throw ApiException.badParameter("to", to, "must be after from=" + from);
    }
    query = query.withWindow(from, to);
    if (body.has("instance")) {
      query = query.withInstance(body.requiredString("instance"));
    }
    if (body.has("version")) {
      query = query.withServiceVersion(body.requiredString("version"));
    }
    if (body.has("unitType")) {
      query = query.withUnitType(body.requiredString("unitType"));
    }
    return ApiResponse.json(new Relabelled(store.relabel(query, label)));
  }
}
