package dev.whyslow.agent.core;

import dev.whyslow.agent.bootstrap.AgentErrors;
import dev.whyslow.agent.bootstrap.ChunkedRunCounts;
import dev.whyslow.agent.bootstrap.Entries;
import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.bootstrap.Units;
import dev.whyslow.agent.config.AgentConfig;
import dev.whyslow.agent.instrument.ClassInstrumenter;
import dev.whyslow.agent.instrument.GuardMethods;
import dev.whyslow.agent.instrument.InstrumentationCounters;
import dev.whyslow.agent.instrument.ProbeTransformer;
import dev.whyslow.agent.instrument.Scope;
import dev.whyslow.agent.instrument.UnitChoice;
import dev.whyslow.protocol.AgentStats;
import dev.whyslow.protocol.Run;
import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * The installed agent: configuration, site registry, process-run counters, the transformer, and the
 * background work (announcing sites, shipping the process run at exit). One per JVM.
 */
public final class AgentRuntime {
  private static final long ANNOUNCE_INTERVAL_MILLIS = 1_000;
  private static volatile AgentRuntime current;

  private final AgentConfig config;
  private final AgentLog log;
  private final SiteRegistry registry;
  private final MethodRegistry methods = new MethodRegistry();
  private final UnitRecorder units;
  private final UnitWorker unitWorker;
  private final UnitTraining training;
  private final ChunkedRunCounts processCounts;
  private final InstrumentationCounters counters = new InstrumentationCounters();
  private final Scope scope;
  private final ProbeTransformer transformer;
  private final TransportLink link;
  private final SamplingPlan sampling;
  private final Instrumentation instrumentation;
  private final GuardEntries guardEntries;
  private final SamplingWindows windows;
  private final AtomicLong runSequence = new AtomicLong();
  private final AtomicLong runsRecorded = new AtomicLong();
  private final long startEpochMillis;
  private final Object wakeUp = new Object();
  private volatile boolean stopping;

  AgentRuntime(AgentConfig config, AgentLog log, Instrumentation instrumentation) {
    this.config = config;
    this.log = log;
    this.registry = new SiteRegistry(config.maxPredicates());
    this.processCounts = new ChunkedRunCounts(registry.slotCapacity());
    this.scope = new Scope(config.include(), config.exclude());
    this.sampling =
        new SamplingPlan(
            config.invocations(),
            config.samplingRate(),
            JitSettling.ofThisJvm(config.invocations().settleMillis()));
    sampling.setRate(config.samplingRate());
    this.instrumentation = instrumentation;
    GuardMethods guards = new GuardMethods();
    UnitChoice unitChoice = new UnitChoice();
    ClassInstrumenter instrumenter =
        ClassInstrumenter.builder(registry, config.probes(), counters)
            .methods(methods)
            .units(config.units().enabled(), config.units().declared())
            .copies(sampling.copies())
            .guards(guards)
            .closableEntries(config.windows().enabled())
            .unitChoice(unitChoice, scope::includes, wholeUnits(config))
            .build();
    this.transformer =
        new ProbeTransformer(scope, instrumenter, counters, instrumentation, this::reportFailure);
    this.link = new TransportLink(config, log, this::stats, sampling);
    link.beforeEachRun(this::announceSitesOfNewClasses);
    this.units = new UnitRecorder(config.units(), registry, link, runSequence, log);
    this.guardEntries =
        new GuardEntries(
            // Closed entries count no depth: windows need the guards to infer by site.
            config.units().depthInEveryFrame() && !config.windows().enabled(),
            sampling.copies(),
            methods,
            guards,
            instrumentation,
            log);
    if (wholeUnits(config)) {
      guardEntries.chooseWholeUnits(unitChoice, scope::includes);
    }
    this.training = new UnitTraining(config.units(), methods, units, link, guardEntries, log);
    units.attach(training);
    this.unitWorker = new UnitWorker(config.units(), units, link, this::unitTick);
    units.onBacklog(unitWorker::wakeUp);
    link.onThresholds(units::setThresholds);
    this.windows =
        new SamplingWindows(
            config.windows(),
            sampling,
            new SamplingWindows.Gate() {
              @Override
              public void close() {
                Entries.setOpen(false);
              }

              @Override
              public void open() {
                Entries.setOpen(true);
              }
            },
            this::windowsBlockedBecause,
            settledAndSteady(JitSettling.ofThisJvm(config.invocations().settleMillis())),
            System::nanoTime,
            log);
    this.startEpochMillis =
        ProcessHandle.current()
            .info()
            .startInstant()
            .map(Instant::toEpochMilli)
            .orElse(System.currentTimeMillis());
  }

  /** The agent installed in this JVM, or {@code null}. */
  public static AgentRuntime current() {
    return current;
  }

  static void setCurrent(AgentRuntime runtime) {
    current = runtime;
  }

  public AgentConfig config() {
    return config;
  }

  public SiteRegistry registry() {
    return registry;
  }

  public ChunkedRunCounts processCounts() {
    return processCounts;
  }

  public InstrumentationCounters counters() {
    return counters;
  }

  public MethodRegistry methods() {
    return methods;
  }

  /** Units timed since the agent started. */
  public long unitsEnded() {
    return units.unitsEnded.sum();
  }

  /** Violations found since the agent started (guard, unit end and watchdog). */
  public long violationsFound() {
    return units.violationsFound.get();
  }

  UnitRecorder unitRecorder() {
    return units;
  }

  /** Turns units on: from now on entry points and wait loops time units. */
  void startUnits() {
    if (config.units().enabled()) {
      Units.install(units);
      training.start();
      unitWorker.start();
    }
  }

  private long nextAuditLogNanos = System.nanoTime();

  /** Each watchdog tick: training (or the audit), and the audit's line every stats interval. */
  private void unitTick() {
    training.tick();
    long now = System.nanoTime();
    if (training.isTrained() && config.units().auditShare() > 0 && now - nextAuditLogNanos >= 0) {
      nextAuditLogNanos = now + config.units().statsIntervalMillis() * 1_000_000L;
      log.info(
          "unit type audit: inferred type agreed with the full trace in "
              + training.auditSummary());
    }
  }

  /** Audited units whose inferred type matched classifying their whole trace. */
  public long auditAgreed() {
    return training.auditAgreed.get();
  }

  /** Units audited after training. */
  public long auditTotal() {
    return training.auditTotal.get();
  }

  /** Whether units are to be chosen whole once trained: not with sampling windows. */
  private static boolean wholeUnits(AgentConfig config) {
    return config.units().wholeUnits() && !config.windows().enabled();
  }

  Scope scope() {
    return scope;
  }

  ProbeTransformer transformer() {
    return transformer;
  }

  /** The process run as it stands now: every site a sampled evaluation reached, with counts. */
  public Run snapshotProcessRun() {
    long nowMillis = System.currentTimeMillis();
    return ProcessRunBuilder.build(
        runSequence.incrementAndGet(),
        registry.entries(),
        processCounts,
        config.label(),
        Probes.samplingRate(),
        startEpochMillis,
        Duration.ofMillis(nowMillis - startEpochMillis).toNanos());
  }

  /** The agent's counters, as sent to the daemon. */
  public AgentStats stats() {
    TransportLink.Counts t = link.counts();
    return new AgentStats(
        System.currentTimeMillis(),
        Probes.samplesRecorded(),
        registry.siteCount(),
        counters.classesInstrumented(),
        counters.classesFailed(),
        runsRecorded.get(),
        t.runsSent(),
        t.runsDropped(),
        AgentErrors.count(),
        t.reconnects(),
        t.bytesSent());
  }

  /** Starts the agent's background thread, which connects and announces new sites every second. */
  void startBackground() {
    Thread worker = new Thread(this::backgroundLoop, "whyslow-agent");
    worker.setDaemon(true);
    worker.start();
    Thread hook = new Thread(this::shutdown, "whyslow-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
  }

  private void backgroundLoop() {
    try {
      Probes.markAgentThread();
      awaitConnectDelay();
      link.start();
      while (!stopping) {
        announceNewSites();
        lowerShareOnceSettled();
        windows.poll();
        synchronized (wakeUp) {
          if (!stopping) {
            wakeUp.wait(ANNOUNCE_INTERVAL_MILLIS);
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Throwable t) {
      AgentErrors.report("the agent's background thread", t);
    }
  }

  /**
   * Waits {@code daemon.connect.delay} before this thread creates the transport and starts its
   * work; what is offered meanwhile is held ({@link TransportLink}). Creating the transport loads
   * some hundreds of classes from the agent's jar, and the JDK's class loading appends characters
   * to growing {@code StringBuilder}s on the way: done while the application's first methods are
   * compiled, that marks the growth branch of the JDK's shared {@code append(char)} as taken, and
   * C2 keeps it in every {@code append(char)} it compiles into the application's code. On JDK 25
   * that cost a word count 8 to 9 % (bench/README.md). A service's own start-up takes that branch
   * anyway; a lean one may not.
   */
  private void awaitConnectDelay() throws InterruptedException {
    long until = System.nanoTime() + config.connectDelayMillis() * 1_000_000;
    synchronized (wakeUp) {
      long left;
      while (!stopping && (left = until - System.nanoTime()) > 0) {
        wakeUp.wait(Math.max(1, left / 1_000_000));
      }
    }
  }

  private void lowerShareOnceSettled() {
    double share = sampling.poll();
    if (share > 0) {
      log.info(
          "the JIT has settled: sampled invocations now run their copies in a share of "
              + share
              + " (sampling.invocation.share.steady)");
    }
  }

  /**
   * When sampling windows may start: the JIT idle, and the share of invocations at its steady one.
   */
  private BooleanSupplier settledAndSteady(JitSettling jit) {
    return () -> jit.settled() && sampling.atSteadyShare();
  }

  /**
   * Whether sampling windows may start: {@code null} while it is too early to say, {@code ""} when
   * they may, else why they never will ({@link SamplingWindows}).
   */
  private String windowsBlockedBecause() {
    if (instrumentation == null || !instrumentation.isRetransformClassesSupported()) {
      return "this JVM cannot retransform classes";
    }
    if (!sampling.copies()) {
      return "at sampling.rate="
          + config.samplingRate()
          + " every invocation runs its probes (windows are for rates where invocations are"
          + " sampled)";
    }
    if (!config.units().enabled()) {
      return "";
    }
    if (config.units().auditShare() > 0) {
      return "units.audit.share traces units, which needs every frame";
    }
    if (!guardEntries.bySite()) {
      String why = guardEntries.everyFrameBecause();
      return why.isEmpty() ? null : why;
    }
    return "";
  }

  private void announceNewSites() {
    registry.announce(link::announceSites);
  }

  /** Before a run is queued: its sites must be queued ahead of it (a volatile read if they are). */
  private void announceSitesOfNewClasses() {
    if (registry.hasUnannounced()) {
      announceNewSites();
    }
  }

  /** At JVM exit: finish the process run, dump it if asked, send it, and say what was dropped. */
  void shutdown() {
    try {
      Probes.markAgentThread();
      stopping = true;
      synchronized (wakeUp) {
        wakeUp.notifyAll();
      }
      if (config.units().enabled()) {
        unitWorker.stopAndFlush();
      }
      Run run = null;
      if (config.processRun()) {
        run = snapshotProcessRun();
        runsRecorded.incrementAndGet();
        writeDump(run);
      }
      link.start(); // at once, also when the JVM exits within daemon.connect.delay
      announceNewSites();
      if (config.units().enabled()) {
        units.flushRuns(); // units that ended while the worker stopped
      }
      if (run != null) {
        link.offerRun(run);
      }
      link.flushAndClose(Duration.ofMillis(config.shutdownFlushTimeoutMillis()));
      TransportLink.Counts t = link.counts();
      if (t.localDrops() > 0) {
        // The transport reports its own drops; these are the runs it never got to see.
        log.warn(
            "dropped "
                + t.localDrops()
                + " run(s): there was no connection to the daemon at "
                + config.daemonAddress()
                + " ("
                + t.lastError()
                + ")");
      }
      log.info(
          "exit: "
              + counters.classesInstrumented()
              + " classes instrumented in "
              + counters.transformNanos() / 1_000_000
              + " ms, "
              + registry.siteCount()
              + " sites, "
              + Probes.samplesRecorded()
              + " samples recorded, runs sent "
              + t.runsSent()
              + ", dropped "
              + t.runsDropped()
              + ", units "
              + units.unitsEnded.sum()
              + " (runs queued "
              + units.unitRunsSent.get()
              + ", violations "
              + units.violationsFound.get()
              + ", "
              + counters.unitsWrapped()
              + " places wrapped, audit "
              + training.auditSummary()
              + ")"
              + ", sampling windows "
              + windows.windowsOpened()
              + ", agent errors "
              + AgentErrors.count());
    } catch (Throwable t) {
      AgentErrors.report("the agent's shutdown", t);
    }
  }

  private void writeDump(Run run) {
    if (config.dump().isEmpty()) {
      return;
    }
    try {
      RunDump.write(Path.of(config.dump()), run, registry.entries(), processCounts);
    } catch (IOException | RuntimeException e) {
      log.warn(
          "cannot write the dump file "
              + config.dump()
              + " ("
              + e
              + "); check the dump setting and that the directory is writable");
    }
  }

  private void reportFailure(String className, Throwable error) {
    log.warnOnce(
        "transform-failure",
        "could not instrument "
            + className
            + " ("
            + error
            + "); it runs unchanged. Later failures are only counted (log=debug prints each)");
  }
}
