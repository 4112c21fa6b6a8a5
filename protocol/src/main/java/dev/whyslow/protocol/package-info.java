/**
 * The wire format and data model shared by the agent and {@code whyslowd}. Depends on nothing, so
 * the agent can shade it and the daemon and storage can use it as their vocabulary.
 *
 * <p>A connection is a sequence of frames: a 4-byte big-endian length of what follows, one
 * message-type byte, and the message payload ({@link MessageCodec}). The first frame from the agent
 * is a {@link Hello}; the daemon answers {@link HelloOk} or {@link ErrorMessage} and closes.
 */
package dev.whyslow.protocol;
