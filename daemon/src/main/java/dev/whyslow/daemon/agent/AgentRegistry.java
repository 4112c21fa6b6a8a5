package dev.whyslow.daemon.agent;

import dev.whyslow.protocol.AgentStats;
import dev.whyslow.protocol.Message;
import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;

/**
 * The agents connected right now and the way to reach them: the API lists them and sends commands
 * ({@code SetSamplingRate}, {@code SetEnabled}) through {@link #send}. Thread-safe.
 */
public final class AgentRegistry {
  private static final AttributeKey<ConnectedAgent> AGENT = AttributeKey.valueOf("whyslow.agent");

  private final ConcurrentMap<String, Entry> byConnection = new ConcurrentHashMap<>();
  private final Set<String> servicesSeen = ConcurrentHashMap.newKeySet();
  private final List<BiConsumer<ConnectedAgent, Channel>> onRegister = new CopyOnWriteArrayList<>();

  /** A connected agent and the statistics it sent last, if any. */
  public record Snapshot(ConnectedAgent agent, Optional<AgentStats> latestStats) {}

  private static final class Entry {
    final ConnectedAgent agent;
    final Channel channel;
    volatile AgentStats latestStats;

    Entry(ConnectedAgent agent, Channel channel) {
      this.agent = agent;
      this.channel = channel;
    }
  }

  /**
   * Registers an agent whose handshake succeeded, then tells the listeners (on the channel's event
   * loop, after the handshake's reply was written), e.g. to send it the current thresholds.
   */
  public void register(Channel channel, ConnectedAgent agent) {
    channel.attr(AGENT).set(agent);
    servicesSeen.add(agent.service());
    byConnection.put(agent.connectionId(), new Entry(agent, channel));
    // A channel may close between the handshake and here; never keep a dead entry.
    channel.closeFuture().addListener(f -> byConnection.remove(agent.connectionId()));
    for (BiConsumer<ConnectedAgent, Channel> listener : onRegister) {
      listener.accept(agent, channel);
    }
  }

  /** Calls {@code listener} with every agent registered from now on. It must not block. */
  public void onRegister(BiConsumer<ConnectedAgent, Channel> listener) {
    onRegister.add(listener);
  }

  /**
   * Connected agents per service, with 0 for every service that had an agent since the daemon
   * started: a service whose agents are gone stays visible, so "agent gone" can alert.
   */
  public Map<String, Integer> connectedByService() {
    Map<String, Integer> counts = new TreeMap<>();
    servicesSeen.forEach(s -> counts.put(s, 0));
    for (Entry e : byConnection.values()) {
      counts.merge(e.agent.service(), 1, Integer::sum);
    }
    return counts;
  }

  /** Services with an agent connected now or since the daemon started. */
  public Set<String> servicesSeen() {
    return Set.copyOf(servicesSeen);
  }

  /** The agent on this channel, once its handshake succeeded. */
  public static Optional<ConnectedAgent> agentOf(Channel channel) {
    return Optional.ofNullable(channel.attr(AGENT).get());
  }

  public void updateStats(ConnectedAgent agent, AgentStats stats) {
    Entry entry = byConnection.get(agent.connectionId());
    if (entry != null) {
      entry.latestStats = stats;
    }
  }

  public int size() {
    return byConnection.size();
  }

  /** Connected agents ordered by service, instance and connection time. */
  public List<Snapshot> agents() {
    List<Snapshot> list = new ArrayList<>();
    for (Entry e : byConnection.values()) {
      list.add(new Snapshot(e.agent, Optional.ofNullable(e.latestStats)));
    }
    list.sort(
        Comparator.comparing((Snapshot s) -> s.agent().service())
            .thenComparing(s -> s.agent().origin().instance())
            .thenComparing(s -> s.agent().connectedAt()));
    return list;
  }

  public List<Snapshot> agents(String service) {
    return agents().stream().filter(s -> s.agent().service().equals(service)).toList();
  }

  /** Sends a command to every connected agent of a service; returns how many it was sent to. */
  public int send(String service, Message command) {
    int sent = 0;
    for (Entry e : byConnection.values()) {
      if (e.agent.service().equals(service) && e.channel.isActive()) {
        e.channel.writeAndFlush(command);
        sent++;
      }
    }
    return sent;
  }
}
