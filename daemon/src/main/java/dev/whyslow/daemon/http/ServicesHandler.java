package dev.whyslow.daemon.http;

import dev.whyslow.daemon.agent.AgentRegistry;
import dev.whyslow.storage.ServiceSummary;
import dev.whyslow.storage.WhyslowStore;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@code GET /api/v1/services} (what is known of each service, stored or connected) and {@code GET
 * /api/v1/services/{service}/sites} (its probe sites).
 */
public final class ServicesHandler implements ApiRoutes {
  private final WhyslowStore store;
  private final AgentRegistry agents;

  public ServicesHandler(WhyslowStore store, AgentRegistry agents) {
    this.store = store;
    this.agents = agents;
  }

  /** One service: what the store holds and how many agents are connected now. */
  public record ServiceView(
      String service,
      Set<String> instances,
      Set<String> versions,
      long siteCount,
      long runCount,
      String lastRunStart,
      int connectedAgents) {}

  /** The body of the services list. */
  public record ServicesView(List<ServiceView> services) {}

  /** The body of a site table. */
  public record SitesView(String service, int count, List<Views.SiteView> sites) {}

  @Override
  public void register(HttpRouter router) {
    router.get("/api/v1/services", request -> ApiResponse.json(new ServicesView(services())));
    router.get("/api/v1/services/{service}/sites", request -> sites(request.pathParam("service")));
  }

  private List<ServiceView> services() {
    Map<String, ServiceView> byName = new TreeMap<>();
    for (ServiceSummary s : store.services()) {
      byName.put(
          s.service(),
          new ServiceView(
              s.service(),
              new TreeSet<>(s.instances()),
              new TreeSet<>(s.serviceVersions()),
              s.siteCount(),
              s.runCount(),
              s.runCount() == 0
                  ? null
                  : Instant.ofEpochMilli(s.lastRunStartEpochMillis()).toString(),
              agents.agents(s.service()).size()));
    }
    for (AgentRegistry.Snapshot a : agents.agents()) {
      // Connected but nothing stored yet: still worth showing.
      byName.computeIfAbsent(
          a.agent().service(),
          name -> {
            Set<String> instances = new TreeSet<>();
            Set<String> versions = new TreeSet<>();
            for (AgentRegistry.Snapshot same : agents.agents(name)) {
              instances.add(same.agent().origin().instance());
              versions.add(same.agent().origin().serviceVersion());
            }
            return new ServiceView(
                name, instances, versions, 0, 0, null, agents.agents(name).size());
          });
    }
    return List.copyOf(byName.values());
  }

  private ApiResponse sites(String service) {
    List<Views.SiteView> sites = store.sites(service).stream().map(Views.SiteView::of).toList();
    if (sites.isEmpty()
        && agents.agents(service).isEmpty()
        && store.services().stream().noneMatch(s -> s.service().equals(service))) {
      throw ApiException.notFound(
          "no service '" + service + "' is known; list services with GET /api/v1/services");
    }
    return ApiResponse.json(new SitesView(service, sites.size(), sites));
  }
}
