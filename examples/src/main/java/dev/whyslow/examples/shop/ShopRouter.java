package dev.whyslow.examples.shop;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The shop's one {@link HttpHandler}: every request comes through {@link #handle}, which dispatches
 * on the path. Since every unit of work starts in this same method, the agent must tell the request
 * kinds apart by what they call, not by where they enter.
 *
 * <p>Paths: {@code /search?q=}, {@code /product?id=}, {@code /cart/add?cart=&id=&qty=}, {@code
 * /checkout?cart=&region=}, {@code /admin/bug} ({@code POST ?share=0.05} sets, {@code GET} reads
 * the bug switch) and {@code /health}. Replies are JSON; errors are {@code {"error": "..."}} with a
 * 4xx status. Each reply carries the work it took in the {@code X-Shop-Work} header.
 */
final class ShopRouter implements HttpHandler {
  static final String WORK_HEADER = "X-Shop-Work";

  private final CatalogSearch search;
  private final ProductPage productPage;
  private final Carts carts;
  private final Checkout checkout;
  private final SearchRewrites rewrites;

  ShopRouter(Catalog catalog, SearchRewrites rewrites) {
    this.rewrites = rewrites;
    this.search = new CatalogSearch(catalog, rewrites);
    this.productPage = new ProductPage(catalog);
    this.carts = new Carts(catalog);
    this.checkout = new Checkout(catalog, carts);
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    Reply reply;
    try {
      reply =
          route(
              exchange.getRequestMethod(),
              exchange.getRequestURI().getPath(),
              QueryParams.parse(exchange.getRequestURI().getRawQuery()));
    } catch (BadRequestException e) {
      reply = error(e.status(), e.getMessage());
    } catch (RuntimeException e) {
      reply = error(500, "internal error: " + e);
    }
    byte[] body = reply.json().getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.getResponseHeaders().set(WORK_HEADER, Long.toString(reply.workSteps()));
    exchange.sendResponseHeaders(reply.status(), body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  Reply route(String method, String path, QueryParams params) {
    Work work = new Work();
    switch (path) {
      case "/search":
        return search.search(params.required("q", "/search?q=navy+shirt"), work);
      case "/product":
        return productPage.render(params.requiredInt("id", "/product?id=42"), work);
      case "/cart/add":
        return carts.add(
            params.required("cart", "/cart/add?cart=c7&id=42&qty=2"),
            params.requiredInt("id", "/cart/add?cart=c7&id=42&qty=2"),
            params.optionalInt("qty", 1, "/cart/add?cart=c7&id=42&qty=2"),
            work);
      case "/checkout":
        return checkout.checkout(
            params.required("cart", "/checkout?cart=c7&region=us-ca"),
            params.optional("region", "us-ca"),
            work);
      case "/admin/bug":
        return bugSwitch(method, params);
      case "/health":
        return new Reply(200, "{\"status\":\"ok\"}", 0);
      default:
        throw new BadRequestException(
            404,
            "no such path: "
                + path
                + "; the shop serves /search, /product, /cart/add, /checkout, /admin/bug and /health");
    }
  }

  private Reply bugSwitch(String method, QueryParams params) {
    if (method.equals("POST")) {
      rewrites.setShare(params.requiredDouble("share", "POST /admin/bug?share=0.05"));
    } else if (!method.equals("GET")) {
      throw new BadRequestException(
          405, "/admin/bug takes GET (read) or POST ?share= (set), not " + method);
    }
    JsonOut json = new JsonOut().begin().field("share", rewrites.share());
    json.beginArray("rewrittenNouns");
    for (String noun : rewrites.rewrittenNouns()) {
      json.value(noun);
    }
    return new Reply(200, json.endArray().end().toString(), 0);
  }

  private static Reply error(int status, String message) {
    return new Reply(status, new JsonOut().begin().field("error", message).end().toString(), 0);
  }
}
