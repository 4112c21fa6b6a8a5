package dev.whyslow.protocol;

/**
 * The daemon accepted the handshake.
 *
 * @param daemonVersion the daemon's version
 * @param maxFrameBytes the largest frame the daemon accepts; the agent keeps batches below it
 */
public record HelloOk(String daemonVersion, int maxFrameBytes) implements Message {}
