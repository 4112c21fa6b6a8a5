package dev.whyslow.agent.transport;

import dev.whyslow.protocol.HelloOk;

/**
 * User event fired down the pipeline when the daemon answered {@code Hello} with {@code HelloOk};
 * only then may sites, runs and statistics flow.
 */
record HandshakeCompleted(HelloOk helloOk) {}
