package dev.whyslow.daemon.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShopDemoCommandsTest {
  private static final ShopDemoCommands COMMANDS =
      new ShopDemoCommands(
          "java", Path.of("agent.jar"), Path.of("examples.jar"), Path.of("whyslowd.jar"), 9720, 77);

  @Test
  void shopRunsUnderTheAgentAsShopDemoWithShortStatsAndAFreePortWatchingTheDaemon() {
    assertThat(COMMANDS.shop())
        .containsExactly(
            "java",
            "-javaagent:agent.jar=service=shop-demo,include=dev.whyslow.examples.shop"
                + ",units.stats.interval=2s,daemon=127.0.0.1:9720",
            "-cp",
            "examples.jar" + File.pathSeparator + "whyslowd.jar",
            "dev.whyslow.daemon.demo.ParentWatch",
            "77",
            "dev.whyslow.examples.shop.ShopService",
            "--port",
            "0",
            "--threads",
            "4");
  }

  @Test
  void loadGeneratorSendsAFixedModestRateToTheShopWithoutTheAgentOrTheBug() {
    List<String> load = COMMANDS.load(36021);
    assertThat(load).noneMatch(arg -> arg.startsWith("-javaagent"));
    assertThat(load).doesNotContain("--bug-share");
    assertThat(load.subList(1, 6))
        .containsExactly(
            "-cp",
            "examples.jar" + File.pathSeparator + "whyslowd.jar",
            "dev.whyslow.daemon.demo.ParentWatch",
            "77",
            "dev.whyslow.examples.shop.LoadGenerator");
    assertThat(String.join(" ", load))
        .endsWith("--url http://127.0.0.1:36021 --rate 40 --warmup 0s --duration 30m");
  }

  @Test
  void bugSwitchUrlUsesADotWhateverTheLocale() {
    assertThat(ShopDemoCommands.bugUrl(8080, 0.05))
        .isEqualTo("http://127.0.0.1:8080/admin/bug?share=0.05");
  }

  @Test
  void shopPortIsReadFromItsListeningLineOnceItIsLogged(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("shop.log");
    assertThat(ShopDemo.listeningPort(log)).isEmpty();
    Files.writeString(log, "OpenJDK 64-Bit Server VM warning: Sharing is only supported\n");
    assertThat(ShopDemo.listeningPort(log)).isEmpty();
    Files.writeString(log, "shop listening on 36021\n", java.nio.file.StandardOpenOption.APPEND);
    assertThat(ShopDemo.listeningPort(log)).contains(36021);
  }

  @Test
  void searchTypeIsTheTrainedTypeOfSearchesNotTheUntrainedEntryPoint() {
    assertThat(
            ShopDemo.searchType(
                List.of(
                    "dev.whyslow.examples.shop.ShopRouter.handle",
                    "ShopRouter.handle/Carts.add",
                    "ShopRouter.handle/CatalogSearch.search")))
        .contains("ShopRouter.handle/CatalogSearch.search");
    assertThat(ShopDemo.searchType(List.of("dev.whyslow.examples.shop.ShopRouter.handle")))
        .isEmpty();
  }

  @Test
  void unitTypeIsQuotedForTheShellOnlyWhenItNeedsIt() {
    assertThat(ShopDemo.shellWord("ShopRouter.handle/CatalogSearch.search"))
        .isEqualTo("ShopRouter.handle/CatalogSearch.search");
    assertThat(ShopDemo.shellWord("Router.handle/it's odd"))
        .isEqualTo("'Router.handle/it'\\''s odd'");
  }

  @Test
  void cliCommandsNameTheServerOnlyWhenItIsNotTheDefault() {
    assertThat(ShopDemoLauncher.cli("http://127.0.0.1:9721")).isEqualTo("daemon/bin/whyslow");
    assertThat(ShopDemoLauncher.cli("http://127.0.0.1:41195"))
        .isEqualTo("daemon/bin/whyslow --server http://127.0.0.1:41195");
  }

  @Test
  void bannerShowsWhereToSeeUnitsThresholdsViolationsAndTheDiagnosis() {
    String banner =
        String.join(
            "\n",
            ShopDemoLauncher.banner("http://127.0.0.1:9721", "daemon/bin/whyslow", Path.of("d")));
    assertThat(banner)
        .contains("curl 'http://127.0.0.1:9721/api/v1/units?service=shop-demo'")
        .contains("curl 'http://127.0.0.1:9721/api/v1/thresholds?service=shop-demo'")
        .contains("curl 'http://127.0.0.1:9721/api/v1/violations?service=shop-demo'")
        .contains("daemon/bin/whyslow diagnose shop-demo --unit-type");
  }
}
