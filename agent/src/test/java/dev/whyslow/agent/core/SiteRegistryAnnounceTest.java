package dev.whyslow.agent.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.protocol.Site;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SiteRegistryAnnounceTest {
  private final SiteRegistry registry = new SiteRegistry(1_000);

  @Test
  void newSitesWaitUntilAnnouncedOnce() {
    assertThat(registry.hasUnannounced()).isFalse();
    registry.registerAll(List.of(TestSites.branch("A", 0), TestSites.branch("A", 1)));
    assertThat(registry.hasUnannounced()).isTrue();

    List<Site> announced = new ArrayList<>();
    registry.announce(announced::addAll);
    registry.announce(announced::addAll);

    assertThat(announced).containsExactly(TestSites.branch("A", 0), TestSites.branch("A", 1));
    assertThat(registry.hasUnannounced()).isFalse();
  }

  @Test
  void sitesAreKeptWhenThereIsNowhereToAnnounceThem() {
    registry.registerAll(List.of(TestSites.branch("A", 0)));
    registry.announce(sites -> false);
    assertThat(registry.hasUnannounced()).isTrue();

    registry.registerAll(List.of(TestSites.branch("B", 0)));
    List<Site> announced = new ArrayList<>();
    registry.announce(announced::addAll);

    assertThat(announced).containsExactly(TestSites.branch("A", 0), TestSites.branch("B", 0));
  }

  @Test
  void aClassRegisteredAgainAddsNothingToAnnounce() {
    registry.registerAll(List.of(TestSites.branch("A", 0)));
    registry.announce(sites -> true);
    registry.registerAll(List.of(TestSites.branch("A", 0)));
    assertThat(registry.hasUnannounced()).isFalse();
  }
}
