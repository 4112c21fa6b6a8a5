package dev.whyslow.daemon.http;

import dev.whyslow.daemon.agent.AgentRegistry;
import dev.whyslow.protocol.Message;
import dev.whyslow.protocol.SetEnabled;
import dev.whyslow.protocol.SetSamplingRate;
import java.util.List;
import java.util.Set;

/**
 * {@code GET /api/v1/agents} lists connected agents with their latest statistics; {@code POST
 * /api/v1/agents/sampling-rate} and {@code POST /api/v1/agents/enabled} (the kill switch) send a
 * command to every connected agent of a service.
 */
public final class AgentsHandler implements ApiRoutes {
  private final AgentRegistry agents;

  public AgentsHandler(AgentRegistry agents) {
    this.agents = agents;
  }

  /** The body of the agent list. */
  public record AgentsView(int count, List<Views.AgentView> agents) {}

  /** The answer to a command: to how many agents it went. */
  public record CommandSent(String service, String command, int agents) {}

  @Override
  public void register(HttpRouter router) {
    router.get(
        "/api/v1/agents",
        request -> {
          request.allowOnly(Set.of("service"));
          List<AgentRegistry.Snapshot> list =
              request.param("service").map(agents::agents).orElseGet(agents::agents);
          return ApiResponse.json(
              new AgentsView(list.size(), list.stream().map(Views.AgentView::of).toList()));
        });
    router.post("/api/v1/agents/sampling-rate", this::samplingRate);
    router.post("/api/v1/agents/enabled", this::enabled);
  }

  private ApiResponse samplingRate(ApiRequest request) {
    JsonBody body = new JsonBody(request.body(), Set.of("service", "rate"));
    String service = body.requiredString("service");
    double rate = body.requiredNumber("rate");
    if (!(rate >= SetSamplingRate.MIN_RATE && rate <= 1)) {
      throw ApiException.badParameter(
          "rate", rate, "must be between " + SetSamplingRate.MIN_RATE + " and 1 (e.g. 0.0001)");
    }
    return send(service, "sampling-rate", new SetSamplingRate(rate));
  }

  private ApiResponse enabled(ApiRequest request) {
    JsonBody body = new JsonBody(request.body(), Set.of("service", "enabled"));
    String service = body.requiredString("service");
    return send(service, "enabled", new SetEnabled(body.requiredBoolean("enabled")));
  }

  private ApiResponse send(String service, String command, Message message) {
    int sent = agents.send(service, message);
    if (sent == 0) {
      throw ApiException.notFound(
          "no agent of service '"
              + service
              + "' is connected; commands reach only connected agents (see GET /api/v1/agents)");
    }
    return ApiResponse.json(new CommandSent(service, command, sent));
  }
}
