package dev.whyslow.daemon.agent;

import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteKind;
import dev.whyslow.storage.WhyslowStore;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The kind of every site known per service, so run validation needs no store read per site. A
 * service's sites are loaded from the store on first use and kept current as batches are stored.
 * Used only by the ingest thread.
 */
final class SiteCatalog {
  private final WhyslowStore store;
  private final Map<String, Map<Long, SiteKind>> byService = new HashMap<>();

  SiteCatalog(WhyslowStore store) {
    this.store = store;
  }

  Optional<SiteKind> kind(String service, long siteKey) {
    return Optional.ofNullable(sitesOf(service).get(siteKey));
  }

  void added(String service, Collection<Site> sites) {
    Map<Long, SiteKind> known = sitesOf(service);
    for (Site site : sites) {
      known.put(site.key(), site.kind());
    }
  }

  private Map<Long, SiteKind> sitesOf(String service) {
    return byService.computeIfAbsent(
        service,
        s -> {
          Map<Long, SiteKind> known = new HashMap<>();
          for (Site site : store.sites(s)) {
            known.put(site.key(), site.kind());
          }
          return known;
        });
  }
}
