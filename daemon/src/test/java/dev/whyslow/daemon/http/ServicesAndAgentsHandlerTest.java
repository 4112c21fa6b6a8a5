package dev.whyslow.daemon.http;

import static dev.whyslow.daemon.http.Requests.get;
import static dev.whyslow.daemon.http.Requests.ok;
import static dev.whyslow.daemon.http.Requests.post;
import static dev.whyslow.daemon.http.Requests.refused;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.whyslow.daemon.TestData;
import dev.whyslow.daemon.agent.AgentRegistry;
import dev.whyslow.daemon.agent.ConnectedAgent;
import dev.whyslow.protocol.SetEnabled;
import dev.whyslow.protocol.SetSamplingRate;
import dev.whyslow.protocol.SiteKeys;
import dev.whyslow.storage.InMemoryStore;
import dev.whyslow.storage.RunOrigin;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ServicesAndAgentsHandlerTest {
  private final InMemoryStore store = new InMemoryStore();
  private final AgentRegistry agents = new AgentRegistry();
  private final HttpRouter router =
      new HttpRouter()
          .register(new ServicesHandler(store, agents))
          .register(new AgentsHandler(agents));
  private final EmbeddedChannel agentChannel = new EmbeddedChannel();

  @AfterEach
  void close() {
    agentChannel.finishAndReleaseAll();
    store.close();
  }

  private void connect(String service, String instance) {
    agents.register(
        agentChannel,
        new ConnectedAgent(
            service + "/" + instance,
            new RunOrigin(service, instance, "1.0"),
            "0.1.0",
            "127.0.0.1:5555",
            Instant.parse("2024-06-10T06:13:20Z")));
  }

  @Test
  void servicesShowStoredAndConnectedOnes() {
    store.putSites("checkout", TestData.SITES.sites());
    store.putRuns(
        new RunOrigin("checkout", "host-a", "1.0"), List.of(TestData.run(1, 1_718_000_000_000L)));
    connect("search", "host-z");

    JsonNode services = ok(router, get("/api/v1/services")).get("services");
    assertThat(services).hasSize(2);
    JsonNode checkout = services.get(0);
    assertThat(checkout.get("service").asText()).isEqualTo("checkout");
    assertThat(checkout.get("instances").get(0).asText()).isEqualTo("host-a");
    assertThat(checkout.get("versions").get(0).asText()).isEqualTo("1.0");
    assertThat(checkout.get("siteCount").asLong()).isEqualTo(2);
    assertThat(checkout.get("runCount").asLong()).isEqualTo(1);
    assertThat(checkout.get("lastRunStart").asText()).isEqualTo("2024-06-10T06:13:20Z");
    assertThat(checkout.get("connectedAgents").asInt()).isZero();
    JsonNode search = services.get(1);
    assertThat(search.get("service").asText()).isEqualTo("search");
    assertThat(search.get("connectedAgents").asInt()).isEqualTo(1);
    assertThat(search.get("runCount").asLong()).isZero();
  }

  @Test
  void siteTableNamesKeysKindsAndPredicatesInWords() {
    store.putSites("checkout", TestData.SITES.sites());
    JsonNode body = ok(router, get("/api/v1/services/checkout/sites"));
    assertThat(body.get("count").asInt()).isEqualTo(2);
    JsonNode loop = null;
    for (JsonNode site : body.get("sites")) {
      if (site.get("key").asText().equals(SiteKeys.format(TestData.LOOP.key()))) {
        loop = site;
      }
    }
    assertThat(loop).isNotNull();
    assertThat(loop.get("className").asText()).isEqualTo("com.acme.Cart");
    assertThat(loop.get("method").asText()).isEqualTo("total");
    assertThat(loop.get("descriptor").asText()).isEqualTo("()J");
    assertThat(loop.get("file").asText()).isEqualTo("Cart.java");
    assertThat(loop.get("line").asInt()).isEqualTo(42);
    assertThat(loop.get("kind").asText()).isEqualTo("loop-branch");
    assertThat(loop.get("loopId").asInt()).isZero();
    assertThat(loop.get("predicates").toString()).isEqualTo("[\"taken\",\"not taken\"]");
  }

  @Test
  void sitesOfAnUnknownServiceAreNotFound() {
    ApiException e = refused(router, get("/api/v1/services/nope/sites"));
    assertThat(e.status()).isEqualTo(HttpResponseStatus.NOT_FOUND);
    assertThat(e.getMessage()).contains("'nope'");
  }

  @Test
  void agentsAreListedWithTheirLatestStats() {
    connect("checkout", "host-a");
    ConnectedAgent agent = agents.agents().get(0).agent();
    agents.updateStats(agent, TestData.stats(3, 100));
    JsonNode list = ok(router, get("/api/v1/agents"));
    assertThat(list.get("count").asInt()).isEqualTo(1);
    JsonNode a = list.get("agents").get(0);
    assertThat(a.get("service").asText()).isEqualTo("checkout");
    assertThat(a.get("instance").asText()).isEqualTo("host-a");
    assertThat(a.get("remoteAddress").asText()).isEqualTo("127.0.0.1:5555");
    assertThat(a.get("connectedAt").asText()).isEqualTo("2024-06-10T06:13:20Z");
    assertThat(a.get("stats").get("runsDropped").asLong()).isEqualTo(3);
  }

  @Test
  void samplingRateAndKillSwitchReachConnectedAgents() {
    connect("checkout", "host-a");
    JsonNode sent =
        ok(
            router,
            post("/api/v1/agents/sampling-rate", "{\"service\":\"checkout\",\"rate\":0.001}"));
    assertThat(sent.get("agents").asInt()).isEqualTo(1);
    assertThat(agentChannel.<Object>readOutbound()).isEqualTo(new SetSamplingRate(0.001));

    ok(router, post("/api/v1/agents/enabled", "{\"service\":\"checkout\",\"enabled\":false}"));
    assertThat(agentChannel.<Object>readOutbound()).isEqualTo(new SetEnabled(false));
  }

  @Test
  void commandsToAServiceWithoutAgentsAreNotFound() {
    ApiException e =
        refused(
            router, post("/api/v1/agents/enabled", "{\"service\":\"checkout\",\"enabled\":true}"));
    assertThat(e.status()).isEqualTo(HttpResponseStatus.NOT_FOUND);
    assertThat(e.getMessage()).contains("no agent of service 'checkout' is connected");
  }

  @Test
  void badCommandsAreRefusedBeforeAnythingIsSent() {
    connect("checkout", "host-a");
    assertThat(
            refused(
                    router,
                    post("/api/v1/agents/sampling-rate", "{\"service\":\"checkout\",\"rate\":2}"))
                .getMessage())
        .contains("'rate'")
        .contains("'2.0'");
    assertThat(
            refused(
                    router,
                    post("/api/v1/agents/enabled", "{\"service\":\"checkout\",\"enabled\":\"no\"}"))
                .getMessage())
        .contains("true or false");
    assertThat(agentChannel.<Object>readOutbound()).isNull();
  }
}
