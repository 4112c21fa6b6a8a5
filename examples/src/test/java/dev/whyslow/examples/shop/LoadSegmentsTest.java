package dev.whyslow.examples.shop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class LoadSegmentsTest {
  final List<HttpServer> servers = new ArrayList<>();

  /** A server answering every request with 200; returns its URL and counts into {@code hits}. */
  String serve(AtomicInteger hits) throws IOException {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    server.createContext(
        "/",
        exchange -> {
          hits.incrementAndGet();
          exchange.sendResponseHeaders(200, -1);
          exchange.close();
        });
    server.start();
    servers.add(server);
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @AfterEach
  void stop() {
    servers.forEach(s -> s.stop(0));
  }

  static String run(String commands) throws IOException, InterruptedException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    LoadSegments.run(
        new BufferedReader(new StringReader(commands)),
        new PrintStream(bytes, true, StandardCharsets.UTF_8));
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void aMeasuredSegmentReportsItsRequestsAndTheTrickleReachesTheIdleShop() throws Exception {
    AtomicInteger measured = new AtomicInteger();
    AtomicInteger idle = new AtomicInteger();
    String shop = serve(measured);
    String idleShop = serve(idle);

    String out = run("measure " + shop + " 20 1 7 " + idleShop + " 10\n");

    assertThat(out).startsWith("segment sent=20 errors=0 latencies_us=");
    assertThat(out.trim().substring(out.indexOf("latencies_us=") + 13).split(",")).hasSize(20);
    assertThat(measured).hasValue(20);
    assertThat(idle).hasValue(10); // the trickle is not reported, but it was sent
  }

  @Test
  void withoutAnIdleShopOnlyTheMeasuredShopGetsRequests() throws Exception {
    AtomicInteger measured = new AtomicInteger();
    String shop = serve(measured);

    assertThat(run("measure " + shop + " 20 1 7\n")).startsWith("segment sent=20 errors=0");
    assertThat(measured).hasValue(20);
  }

  @Test
  void aTrickleThatCannotReachItsShopFailsTheSegmentNamingTheUrl() throws Exception {
    String shop = serve(new AtomicInteger());
    String nobody;
    try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      nobody = "http://127.0.0.1:" + closed.getLocalPort();
    }

    assertThatThrownBy(() -> run("measure " + shop + " 20 1 7 " + nobody + " 5\n"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("the trickle to " + nobody)
        .hasMessageContaining("errors in 5 requests");
  }

  @Test
  void aMalformedCommandIsRefusedWithTheExpectedForm() {
    assertThatThrownBy(() -> run("measure http://127.0.0.1:1 20 1 7 http://127.0.0.1:2\n"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("[<idle url> <idle rate>]")
        .hasMessageContaining("got: measure");
  }
}
