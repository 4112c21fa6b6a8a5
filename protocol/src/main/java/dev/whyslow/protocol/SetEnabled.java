package dev.whyslow.protocol;

/** Daemon to agent: the kill switch. {@code false} turns every probe into a no-op. */
public record SetEnabled(boolean enabled) implements Message {}
