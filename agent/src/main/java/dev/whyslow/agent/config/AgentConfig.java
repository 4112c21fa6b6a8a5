package dev.whyslow.agent.config;

import dev.whyslow.protocol.Label;
import java.util.List;
import java.util.OptionalLong;

/**
 * The agent's configuration after precedence and validation ({@link AgentConfigLoader}). Every
 * value here is usable: a bad setting was reported and replaced by its default.
 *
 * @param enabled false installs nothing
 * @param service logical service name
 * @param instance this JVM's name; {@code ""} means host name and pid, resolved off the main thread
 * @param version the service's deployed version
 * @param daemonHost whyslowd host
 * @param daemonPort whyslowd agent port
 * @param token shared secret for the daemon, {@code ""} for none
 * @param connectDelayMillis how long after start the agent's background thread creates the
 *     transport and connects to the daemon; what is offered meanwhile is held, and at exit it
 *     connects at once
 * @param samplingRate probability that one predicate evaluation is recorded, in [1e-6, 1]
 * @param invocations which invocations run their probes ({@link InvocationSampling})
 * @param samplingSeed the seed every thread's sampler starts from (with its thread id), for runs
 *     that must sample the same evaluations each time; empty for a random start per thread
 * @param include dotted package or class prefixes to instrument; empty means none
 * @param exclude dotted prefixes taken out of the includes
 * @param probes which probe families to insert
 * @param processRun whether the whole JVM is recorded as one run, sent at exit
 * @param label the label of the process run
 * @param queueCapacity most finished runs waiting to be sent
 * @param batchMaxRuns most runs per frame
 * @param batchMaxDelayMillis longest a run waits for its batch
 * @param maxPredicates predicate budget; classes beyond it stay uninstrumented
 * @param shutdownFlushTimeoutMillis how long the JVM exit waits to send the last runs
 * @param log stderr verbosity
 * @param dump file the final process run and site table are written to at exit, or {@code ""}
 * @param units units of work, their types, thresholds and violations
 * @param windows when the probes are in once the service has settled ({@link
 *     SamplingWindowSettings})
 */
public record AgentConfig(
    boolean enabled,
    String service,
    String instance,
    String version,
    String daemonHost,
    int daemonPort,
    String token,
    long connectDelayMillis,
    double samplingRate,
    InvocationSampling invocations,
    OptionalLong samplingSeed,
    List<String> include,
    List<String> exclude,
    ProbeSet probes,
    boolean processRun,
    Label label,
    int queueCapacity,
    int batchMaxRuns,
    long batchMaxDelayMillis,
    int maxPredicates,
    long shutdownFlushTimeoutMillis,
    LogLevel log,
    String dump,
    UnitSettings units,
    SamplingWindowSettings windows) {

  public AgentConfig {
    include = List.copyOf(include);
    exclude = List.copyOf(exclude);
  }

  /** {@code host:port} of the daemon, for messages. */
  public String daemonAddress() {
    return daemonHost.contains(":")
        ? "[" + daemonHost + "]:" + daemonPort
        : daemonHost + ":" + daemonPort;
  }

  @Override
  public String toString() {
    // Never print the token.
    return "AgentConfig[service="
        + service
        + ", instance="
        + instance
        + ", version="
        + version
        + ", daemon="
        + daemonAddress()
        + ", sampling.rate="
        + samplingRate
        + ", sampling.invocations="
        + (!invocations.usedAt(samplingRate)
            ? "all"
            : invocations.steadyShareAt(samplingRate) < invocations.share()
                ? invocations.share()
                    + " then "
                    + invocations.steadyShareAt(samplingRate)
                    + " once the JIT settles"
                : invocations.share())
        + (samplingSeed.isPresent() ? ", sampling.seed=" + samplingSeed.getAsLong() : "")
        + ", include="
        + include
        + ", exclude="
        + exclude
        + ", probes="
        + probes
        + ", label="
        + label.spelling()
        + ", sampling.windows="
        + windows
        + ", units="
        + (units.enabled() ? "on" : "off")
        + "]";
  }
}
