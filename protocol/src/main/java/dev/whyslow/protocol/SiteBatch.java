package dev.whyslow.protocol;

import java.util.List;

/** Site metadata, sent once per site per connection before any run that mentions the site. */
public record SiteBatch(List<Site> sites) implements Message {
  public SiteBatch {
    sites = List.copyOf(sites);
  }
}
