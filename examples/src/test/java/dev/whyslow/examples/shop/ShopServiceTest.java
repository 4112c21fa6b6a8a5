package dev.whyslow.examples.shop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ShopServiceTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static ShopService shop;
  static HttpClient client;

  record Answer(int status, JsonNode json, long work) {}

  @BeforeAll
  static void start() throws IOException {
    shop = ShopService.start(ShopOptions.defaults().withPort(0));
    client = HttpClient.newHttpClient();
  }

  @AfterAll
  static void stop() {
    shop.close();
  }

  @AfterEach
  void healthy() {
    shop.setBugShare(0);
  }

  static Answer call(String method, String pathAndQuery) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + shop.port() + pathAndQuery))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .build();
    HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
    String work = response.headers().firstValue(ShopRouter.WORK_HEADER).orElseThrow();
    return new Answer(response.statusCode(), JSON.readTree(response.body()), Long.parseLong(work));
  }

  static Answer get(String pathAndQuery) throws Exception {
    return call("GET", pathAndQuery);
  }

  @Test
  void searchFindsProductsWithEveryWordOfTheQuery() throws Exception {
    Answer answer = get("/search?q=Navy+shirt");
    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.json().get("total").asInt()).isPositive();
    assertThat(answer.json().get("results")).hasSizeBetween(1, CatalogSearch.PAGE_SIZE);
    for (JsonNode result : answer.json().get("results")) {
      assertThat(result.get("name").asText()).contains("Navy").endsWith("Shirt");
      assertThat(result.get("price").asText()).matches("\\d+\\.\\d\\d");
    }
  }

  @Test
  void searchWithACustomersWildcardScansNamesAndFindsPrefixMatches() throws Exception {
    Answer answer = get("/search?q=navy+sh*");
    assertThat(answer.status()).isEqualTo(200);
    for (JsonNode result : answer.json().get("results")) {
      assertThat(result.get("name").asText()).contains("Navy").contains(" Sh");
    }
  }

  @Test
  void productPageShowsPriceRatingsAndRelatedProductsOfTheSameNoun() throws Exception {
    Answer answer = get("/product?id=42");
    assertThat(answer.status()).isEqualTo(200);
    String name = answer.json().get("name").asText();
    String noun = name.substring(name.lastIndexOf(' ') + 1);
    assertThat(answer.json().get("stars")).hasSize(5);
    assertThat(answer.json().get("related")).hasSize(ProductPage.RELATED);
    for (JsonNode related : answer.json().get("related")) {
      assertThat(related.get("name").asText()).endsWith(" " + noun);
      assertThat(related.get("id").asInt()).isNotEqualTo(42);
    }
  }

  @Test
  void cartCollectsLinesAndCheckoutOrdersThemWithTaxThenEmptiesTheCart() throws Exception {
    Answer first = get("/cart/add?cart=t1&id=1&qty=2");
    assertThat(first.status()).isEqualTo(200);
    assertThat(first.json().get("lines").asInt()).isEqualTo(1);
    Answer second = call("POST", "/cart/add?cart=t1&id=2&qty=3");
    assertThat(second.json().get("lines").asInt()).isEqualTo(2);
    assertThat(second.json().get("suggestions")).isNotEmpty();

    Answer order = get("/checkout?cart=t1&region=de");
    assertThat(order.status()).isEqualTo(200);
    assertThat(order.json().get("status").asText()).isEqualTo("ordered");
    assertThat(order.json().get("lines").asInt()).isEqualTo(2);
    assertThat(order.json().get("subtotal").asText())
        .isEqualTo(second.json().get("subtotal").asText());
    double subtotal = order.json().get("subtotal").asDouble();
    // Germany taxes everything at 19 %, rounded down per line.
    assertThat(order.json().get("tax").asDouble())
        .isBetween(subtotal * 0.19 - 0.02, subtotal * 0.19);
    assertThat(order.json().get("total").asDouble())
        .isEqualTo(
            subtotal + order.json().get("tax").asDouble(),
            org.assertj.core.data.Offset.offset(0.001));

    assertThat(get("/checkout?cart=t1").json().get("status").asText()).isEqualTo("empty");
  }

  @Test
  void badRequestsGetAClearErrorAndStatus() throws Exception {
    assertError(get("/search"), 400, "q is required");
    assertError(get("/product?id=abc"), 400, "id must be a whole number");
    assertError(get("/product?id=9999999"), 404, "no product with id 9999999");
    assertError(get("/cart/add?cart=t2&id=1&qty=0"), 400, "qty must be from 1 to 99, was 0");
    assertError(get("/checkout?cart=t2&region=mars"), 400, "region must be one of");
    assertError(get("/nowhere"), 404, "no such path: /nowhere");
    assertError(call("POST", "/admin/bug?share=2"), 400, "share must be a number from 0 to 1");
    assertError(call("DELETE", "/admin/bug"), 405, "not DELETE");
  }

  static void assertError(Answer answer, int status, String message) {
    assertThat(answer.status()).isEqualTo(status);
    assertThat(answer.json().get("error").asText()).contains(message);
  }

  @Test
  void bugSwitchSendsTheChosenShareOfNounsToTheSlowPathAndBack() throws Exception {
    Answer set = call("POST", "/admin/bug?share=0.1");
    assertThat(set.json().get("share").asDouble()).isEqualTo(0.1);
    List<String> rewritten = new ArrayList<>();
    set.json().get("rewrittenNouns").forEach(n -> rewritten.add(n.asText()));
    assertThat(rewritten).hasSize(Catalog.NOUNS.size() / 10);
    assertThat(get("/admin/bug").json().get("share").asDouble()).isEqualTo(0.1);

    List<Long> healthyWork = new ArrayList<>();
    for (String noun : Catalog.NOUNS) {
      if (!rewritten.contains(noun)) {
        healthyWork.add(get("/search?q=" + noun).work());
        healthyWork.add(get("/search?q=olive+" + noun).work());
      }
    }
    Collections.sort(healthyWork);
    long median = healthyWork.get(healthyWork.size() / 2);
    for (String noun : rewritten) {
      assertThat(get("/search?q=" + noun).work())
          .as("work of a search for rewritten '%s' against the median %d", noun, median)
          .isGreaterThanOrEqualTo(10 * median);
    }

    assertThat(call("POST", "/admin/bug?share=0").json().get("rewrittenNouns")).isEmpty();
    assertThat(get("/search?q=" + rewritten.get(0)).work())
        .isLessThanOrEqualTo(healthyWork.get(healthyWork.size() - 1));
  }

  @Test
  void bugShareIsRoundedToWholeNouns() {
    SearchRewrites rewrites = new SearchRewrites();
    assertThat(rewrites.setShare(0.05)).isEqualTo(0.06);
    assertThat(rewrites.rewrittenNouns()).hasSize(3);
    assertThat(rewrites.apply(new String[] {"navy", rewrites.rewrittenNouns().get(0)}))
        .containsExactly("navy", rewrites.rewrittenNouns().get(0) + "*");
  }

  @Test
  void wildcardPatternsBecomeRegularExpressionsWithLiteralText() {
    assertThat("shirt").matches(CatalogSearch.globToRegex("sh*"));
    assertThat("shirt").matches(CatalogSearch.globToRegex("*irt"));
    assertThat("shirt").matches(CatalogSearch.globToRegex("s*r*t"));
    assertThat("shirt").matches(CatalogSearch.globToRegex("shirt*"));
    assertThat("shirt").doesNotMatch(CatalogSearch.globToRegex("sh*x"));
    assertThat("shirts").doesNotMatch(CatalogSearch.globToRegex("shirt"));
    assertThat("a.b")
        .matches(CatalogSearch.globToRegex("a.*"))
        .doesNotMatch(CatalogSearch.globToRegex("a.c"));
    assertThat("axb").doesNotMatch(CatalogSearch.globToRegex("a.b"));
  }

  @Test
  void optionsParseBothSpellingsAndKeepDefaults() {
    assertThat(ShopOptions.parse("--port", "0", "--threads=8", "--bug-share", "0.05"))
        .isEqualTo(new ShopOptions(0, 8, 0.05, Catalog.DEFAULT_SIZE));
    assertThat(ShopOptions.parse()).isEqualTo(ShopOptions.defaults());
  }

  @Test
  void badOptionsNameTheOptionAndTheValue() {
    assertThatThrownBy(() -> ShopOptions.parse("--port", "http"))
        .hasMessage("ShopService: --port must be a whole number from 0 to 65535, was 'http'");
    assertThatThrownBy(() -> ShopOptions.parse("--bug-share=1.5"))
        .hasMessageContaining("--bug-share must be a number from 0.0 to 1.0, was '1.5'");
    assertThatThrownBy(() -> ShopOptions.parse("--thread", "4"))
        .hasMessageContaining("unknown option --thread; options are --port, --threads");
    assertThatThrownBy(() -> ShopOptions.parse("--threads"))
        .hasMessageContaining("option --threads needs a value");
    assertThatThrownBy(() -> ShopOptions.parse("8080"))
        .hasMessageContaining("unexpected argument '8080'");
  }
}
