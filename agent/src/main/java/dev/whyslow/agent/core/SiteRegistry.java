package dev.whyslow.agent.core;

import dev.whyslow.protocol.Site;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Every probe site this JVM knows, with its dense index and the counter slots its run counters use:
 * {@code slot} counts sampled evaluations reaching the site, {@code slot + 1 + i} those where its
 * predicate {@code i} was true. Bounded by a predicate budget; a class that does not fit is left
 * uninstrumented and counted. Sites are keyed by their stable key, so a class loaded twice (two
 * class loaders, retransformation) shares its slots.
 */
public final class SiteRegistry {
  /** A registered site and where its counters are. */
  public record Entry(int index, int slot, Site site) {}

  private final int maxPredicates;
  private final int slotCapacity;
  private final SiteKeyTable byKey = new SiteKeyTable();
  private final List<Entry> entries = new ArrayList<>();
  private final List<Site> unannounced = new ArrayList<>();

  /**
   * Whether {@link #unannounced} holds sites; read without the lock by every thread about to queue
   * a run, written under it.
   */
  private volatile boolean unannouncedWaiting;

  private int predicates;
  private int nextSlot;
  private long rejectedClasses;

  /**
   * @param maxPredicates most predicates across all sites, at least 2
   */
  public SiteRegistry(int maxPredicates) {
    if (maxPredicates < 2) {
      throw new IllegalArgumentException("max predicates must be >= 2, was " + maxPredicates);
    }
    this.maxPredicates = maxPredicates;
    // Every site has at least two predicates, so sites <= predicates / 2 and slots fit in this.
    this.slotCapacity = maxPredicates + maxPredicates / 2;
  }

  /** Counter slots a run needs to hold every site this registry can ever register. */
  public int slotCapacity() {
    return slotCapacity;
  }

  /**
   * Registers the sites of one class all at once: the slot of each, in order, or {@code null} when
   * they would exceed the predicate budget (then nothing is registered and the class is counted).
   */
  public synchronized int[] registerAll(List<Site> sites) {
    int newPredicates = 0;
    int newSlots = 0;
    for (Site site : sites) {
      if (byKey.get(site.key()) == null) {
        newPredicates += site.kind().predicateCount();
        newSlots += 1 + site.kind().predicateCount();
      }
    }
    if (predicates + newPredicates > maxPredicates || nextSlot + newSlots > slotCapacity) {
      rejectedClasses++;
      return null;
    }
    int[] slots = new int[sites.size()];
    for (int i = 0; i < sites.size(); i++) {
      Site site = sites.get(i);
      Entry entry = byKey.get(site.key());
      if (entry == null) {
        entry = new Entry(entries.size(), nextSlot, site);
        nextSlot += 1 + site.kind().predicateCount();
        predicates += site.kind().predicateCount();
        byKey.put(site.key(), entry);
        entries.add(entry);
        unannounced.add(site);
        unannouncedWaiting = true;
      }
      slots[i] = entry.slot();
    }
    return slots;
  }

  /** Whether sites registered since the last announcement wait; one volatile read. */
  public boolean hasUnannounced() {
    return unannouncedWaiting;
  }

  /**
   * Hands the sites registered since the last announcement to {@code announcer}, holding this
   * registry's lock until it returns, so that a thread which then reads {@link #hasUnannounced} as
   * false knows they are queued ahead of anything it queues next. When {@code announcer} returns
   * false (nowhere to send them yet) they are kept for the next call.
   */
  public synchronized void announce(Predicate<List<Site>> announcer) {
    if (unannounced.isEmpty()) {
      return;
    }
    if (announcer.test(List.copyOf(unannounced))) {
      unannounced.clear();
      unannouncedWaiting = false;
    }
  }

  /**
   * The site whose counters include {@code slot} (its own slot or one of its predicates'), or
   * {@code null}. Sites are registered in slot order, so this is a binary search.
   */
  public synchronized Entry entryCovering(int slot) {
    int lo = 0;
    int hi = entries.size() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      Entry e = entries.get(mid);
      if (slot < e.slot()) {
        hi = mid - 1;
      } else if (slot > e.slot() + e.site().kind().predicateCount()) {
        lo = mid + 1;
      } else {
        return e;
      }
    }
    return null;
  }

  /** Every registered site, in index order. */
  public synchronized List<Entry> entries() {
    return List.copyOf(entries);
  }

  public synchronized int siteCount() {
    return entries.size();
  }

  public synchronized int predicateCount() {
    return predicates;
  }

  /** Classes left uninstrumented because the predicate budget was used up. */
  public synchronized long rejectedClasses() {
    return rejectedClasses;
  }

  public int maxPredicates() {
    return maxPredicates;
  }
}
