package dev.whyslow.examples.shop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class LoadGeneratorTest {
  HttpServer server;
  ExecutorService serverPool;

  interface Handler {
    void handle(HttpExchange exchange) throws Exception;
  }

  int serve(int threads, Handler handler) throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    serverPool = Executors.newFixedThreadPool(threads);
    server.setExecutor(serverPool);
    server.createContext(
        "/",
        exchange -> {
          try {
            handler.handle(exchange);
            exchange.sendResponseHeaders(200, -1);
          } catch (Exception e) {
            exchange.sendResponseHeaders(500, -1);
          } finally {
            exchange.close();
          }
        });
    server.start();
    return server.getAddress().getPort();
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop(0);
      serverPool.shutdownNow();
    }
  }

  static LoadOptions options(int port, String... more) {
    String[] base = {
      "--url",
      "http://127.0.0.1:" + port,
      "--rate",
      "20",
      "--duration",
      "1s",
      "--warmup",
      "0s",
      "--mix",
      "search=1"
    };
    String[] all = new String[base.length + more.length];
    System.arraycopy(base, 0, all, 0, base.length);
    System.arraycopy(more, 0, all, base.length, more.length);
    return LoadOptions.parse(all);
  }

  @Test
  void scheduleIsFixedRateFromTheStart() {
    ArrivalSchedule schedule = ArrivalSchedule.of(1_000, 20);
    assertThat(schedule.intendedNanos(0)).isEqualTo(1_000);
    assertThat(schedule.intendedNanos(1)).isEqualTo(1_000 + 50_000_000L);
    assertThat(schedule.intendedNanos(19)).isEqualTo(1_000 + 950_000_000L);
    assertThat(schedule.count(Duration.ofSeconds(1))).isEqualTo(20);
    assertThat(ArrivalSchedule.of(0, 3).count(Duration.ofSeconds(1))).isEqualTo(3);
    assertThat(ArrivalSchedule.of(0, 0.5).count(Duration.ofSeconds(10))).isEqualTo(5);
  }

  @Test
  void requestsLeaveOnScheduleWithoutWaitingForResponses() throws Exception {
    // The server answers nothing until all 20 requests are in: a generator that waited for
    // responses before sending more would never get there.
    CountDownLatch allArrived = new CountDownLatch(20);
    int port =
        serve(
            20,
            exchange -> {
              allArrived.countDown();
              if (!allArrived.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("not every request arrived");
              }
            });
    LoadReport report = LoadGenerator.run(options(port, "--connections", "20"));
    assertThat(report.overall().sent()).isEqualTo(20);
    assertThat(report.overall().completed()).isEqualTo(20);
    assertThat(report.overall().errors()).isZero();
    // Request 0 was held until request 19 was sent, 950 ms after request 0 was due.
    assertThat(report.overall().maxMs()).isGreaterThanOrEqualTo(950);
  }

  @Test
  void latencyCountsQueueingFromTheIntendedSendTime() throws Exception {
    // One connection and a server that takes at least 100 ms: request i is due at 50·i ms but
    // cannot finish before 100·(i+1) ms, so its latency is at least 100 + 50·i ms, although each
    // response took only about 100 ms once sent.
    AtomicInteger served = new AtomicInteger();
    int port =
        serve(
            1,
            exchange -> {
              Thread.sleep(100);
              served.incrementAndGet();
            });
    LoadReport report = LoadGenerator.run(options(port, "--connections", "1"));
    LatencyStats search = report.kinds().get(RequestKind.SEARCH);
    assertThat(search.sent()).isEqualTo(20);
    assertThat(search.completed()).isEqualTo(20);
    assertThat(served).hasValue(20);
    // The k-th smallest latency is at least the k-th smallest bound 100 + 50·(k-1).
    assertThat(search.p50Ms()).isGreaterThanOrEqualTo(100 + 50 * 9);
    assertThat(search.maxMs()).isGreaterThanOrEqualTo(100 + 50 * 19);
  }

  @Test
  void errorsAreCountedAndTheSummaryIsJson() throws Exception {
    int port =
        serve(
            2,
            exchange -> {
              if (exchange.getRequestURI().getPath().equals("/checkout")) {
                throw new IllegalStateException("checkout is down");
              }
            });
    LoadReport report =
        LoadGenerator.run(options(port, "--mix", "product=1,checkout=1", "--connections", "2"));
    LatencyStats checkout = report.kinds().get(RequestKind.CHECKOUT);
    LatencyStats product = report.kinds().get(RequestKind.PRODUCT);
    assertThat(checkout.errors()).isEqualTo(checkout.sent()).isPositive();
    assertThat(product.errors()).isZero();
    assertThat(checkout.sent() + product.sent()).isEqualTo(20);

    JsonNode json = new ObjectMapper().readTree(report.toJson());
    assertThat(json.get("rate").asDouble()).isEqualTo(20);
    assertThat(json.get("overall").get("sent").asLong()).isEqualTo(20);
    assertThat(json.get("kinds").get("checkout").get("errors").asLong())
        .isEqualTo(checkout.errors());
    assertThat(json.get("kinds").has("search")).isFalse();
    for (String field : new String[] {"p50Ms", "p90Ms", "p99Ms", "p999Ms", "maxMs", "completed"}) {
      assertThat(json.get("overall").has(field)).as(field).isTrue();
    }
    assertThat(report.toText()).contains("checkout").contains("p99.9 ms").contains("all ");
  }

  @Test
  void percentilesAreNearestRank() {
    long[] values = new long[1000];
    for (int i = 0; i < values.length; i++) {
      values[i] = (values.length - i) * 1_000_000L; // 1000 ms down to 1 ms, unsorted
    }
    LatencyStats stats = LatencyStats.of(1000, 0, values);
    assertThat(stats.p50Ms()).isEqualTo(500);
    assertThat(stats.p90Ms()).isEqualTo(900);
    assertThat(stats.p99Ms()).isEqualTo(990);
    assertThat(stats.p999Ms()).isEqualTo(999);
    assertThat(stats.maxMs()).isEqualTo(1000);
    assertThat(LatencyStats.of(0, 0, new long[0]).p99Ms()).isNaN();
  }

  @Test
  void mixDrawsKindsByWeight() {
    RequestMix mix = RequestMix.parse("search=3, checkout=1,product=0");
    SplittableRandom random = new SplittableRandom(7);
    int searches = 0;
    for (int i = 0; i < 4000; i++) {
      RequestKind kind = mix.pick(random);
      assertThat(kind).isIn(RequestKind.SEARCH, RequestKind.CHECKOUT);
      searches += kind == RequestKind.SEARCH ? 1 : 0;
    }
    assertThat(searches).isBetween(2800, 3200);
  }

  @Test
  void optionsHaveDefaultsAndTakeASwitch() {
    LoadOptions o = LoadOptions.parse("--rate=200", "--json", "--bug-share", "0.05");
    assertThat(o.rate()).isEqualTo(200);
    assertThat(o.json()).isTrue();
    assertThat(o.bugShare()).isEqualTo(0.05);
    assertThat(o.url().toString()).isEqualTo("http://127.0.0.1:8080");
    assertThat(o.duration()).isEqualTo(Duration.ofSeconds(30));
    assertThat(o.mix()).isEqualTo(RequestMix.parse(RequestMix.DEFAULT));
    assertThat(Double.isNaN(LoadOptions.parse().bugShare())).isTrue();
  }

  @Test
  void badOptionsSayWhatWasWrong() {
    assertThatThrownBy(() -> LoadOptions.parse("--rate", "fast"))
        .hasMessage("LoadGenerator: --rate must be a number from 0.01 to 100000.0, was 'fast'");
    assertThatThrownBy(() -> LoadOptions.parse("--duration", "ten"))
        .hasMessageContaining(
            "--duration must be a duration such as 500ms, 30s, 2m or 1h, was 'ten'");
    assertThatThrownBy(() -> LoadOptions.parse("--duration", "0s"))
        .hasMessageContaining("--duration must be longer than zero");
    assertThatThrownBy(() -> LoadOptions.parse("--url", "ftp://host"))
        .hasMessageContaining("--url must be an http URL");
    assertThatThrownBy(() -> LoadOptions.parse("--mix", "search=lots"))
        .hasMessageContaining("--mix: weight of search must be a whole number >= 0, was 'lots'");
    assertThatThrownBy(() -> LoadOptions.parse("--mix", "browse=1"))
        .hasMessageContaining("unknown request kind 'browse'");
    assertThatThrownBy(() -> LoadOptions.parse("--mix", "search=0"))
        .hasMessageContaining("gives every kind weight 0");
    assertThatThrownBy(() -> LoadOptions.parse("--json=maybe"))
        .hasMessageContaining("--json must be true or false");
    assertThatThrownBy(() -> LoadOptions.parse("--rps", "5"))
        .hasMessageContaining("unknown option --rps; options are --url, --rate");
  }

  @Test
  void bugShareIsSetOnTheShopBeforeTheRun() throws Exception {
    try (ShopService shop =
        ShopService.start(ShopOptions.defaults().withPort(0).withProducts(1000))) {
      LoadReport report =
          LoadGenerator.run(
              LoadOptions.parse(
                  "--url",
                  "http://127.0.0.1:" + shop.port(),
                  "--rate",
                  "50",
                  "--duration",
                  "1s",
                  "--warmup",
                  "0s",
                  "--bug-share",
                  "0.1",
                  "--products",
                  "1000"));
      assertThat(shop.bugShare()).isEqualTo(0.1);
      assertThat(report.overall().errors()).isZero();
      assertThat(report.overall().completed()).isEqualTo(50);
    }
  }
}
