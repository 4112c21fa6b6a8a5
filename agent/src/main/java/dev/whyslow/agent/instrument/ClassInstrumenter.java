package dev.whyslow.agent.instrument;

import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.config.ProbeSet;
import dev.whyslow.agent.core.MethodRegistry;
import dev.whyslow.agent.core.SiteRegistry;
import dev.whyslow.protocol.Site;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodTooLargeException;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Turns one class file into its instrumented form: marks where units begin and end ({@link
 * UnitWrapper}), plans the probe points of every method, registers their sites, and rewrites the
 * methods with probes or calls (depth count). A class outside the scope only gets its unit wrappers
 * ({@link #wrapUnitsOnly}). A method that cannot be analysed, or that would grow past the 64 KiB
 * code limit, is left as it was; the class is still instrumented.
 */
public final class ClassInstrumenter {
  private static final int MAX_ATTEMPTS = 4;

  private final SiteRegistry registry;
  private final ProbeSet probes;
  private final InstrumentationCounters counters;
  private final MethodRegistry methods;
  private final UnitWrapper units;
  private final boolean copies;
  private final GuardMethods guards;
  private final boolean closableEntries;
  private final UnitChoice unitChoice;
  private final Predicate<String> inScope;
  private final boolean separateCopies;

  /** Probes only, inline in every method: no unit wrappers, no depth count, no copies. */
  public ClassInstrumenter(
      SiteRegistry registry, ProbeSet probes, InstrumentationCounters counters) {
    this(builder(registry, probes, counters));
  }

  private ClassInstrumenter(Builder b) {
    this.registry = b.registry;
    this.probes = b.probes;
    this.counters = b.counters;
    this.methods = b.methods;
    this.units = b.units ? new UnitWrapper(true, b.declared) : UnitWrapper.disabled();
    this.copies = b.copies;
    this.guards = b.guards;
    this.closableEntries = b.closableEntries;
    this.unitChoice = b.unitChoice;
    this.inScope = b.inScope;
    this.separateCopies = b.separateCopies;
  }

  /** An instrumenter for probes only, to which the builder adds what the agent's settings ask. */
  public static Builder builder(
      SiteRegistry registry, ProbeSet probes, InstrumentationCounters counters) {
    return new Builder(registry, probes, counters);
  }

  /** What an instrumenter does beyond probes inline in every method. */
  public static final class Builder {
    private final SiteRegistry registry;
    private final ProbeSet probes;
    private final InstrumentationCounters counters;
    private MethodRegistry methods = new MethodRegistry();
    private boolean units;
    private List<String> declared = List.of();
    private boolean copies;
    private GuardMethods guards = new GuardMethods();
    private boolean closableEntries;
    private UnitChoice unitChoice = new UnitChoice();
    private Predicate<String> inScope = name -> false;
    private boolean separateCopies;

    private Builder(SiteRegistry registry, ProbeSet probes, InstrumentationCounters counters) {
      this.registry = registry;
      this.probes = probes;
      this.counters = counters;
    }

    /** Where the methods that count depth get their ids. */
    public Builder methods(MethodRegistry methods) {
      this.methods = methods;
      return this;
    }

    /**
     * Wraps units when {@code enabled} ({@code units=on}), and declares {@code declared} as units
     * besides those found, such as {@code com.acme.Worker#process}.
     */
    public Builder units(boolean enabled, List<String> declared) {
      this.units = enabled;
      this.declared = declared;
      return this;
    }

    /**
     * Methods keep their own code and get their probes in copies, for sampled invocations ({@link
     * MethodCopies}), when {@code copies} holds.
     */
    public Builder copies(boolean copies) {
      this.copies = copies;
      return this;
    }

    /** The dispatch of the methods in {@code guards} asks for the guard's entry. */
    public Builder guards(GuardMethods guards) {
      this.guards = guards;
      return this;
    }

    /**
     * Each method's dispatch first tests whether the entries are open ({@code Entries.open()}), for
     * sampling windows; without it the entries always choose, and no method pays the test.
     */
    public Builder closableEntries(boolean closable) {
      this.closableEntries = closable;
      return this;
    }

    /**
     * Once {@code choice} is on, classes get the form where units are chosen whole, and the copies'
     * calls of the classes {@code inScope} (internal names) go to their copies ({@link CopyCalls}).
     * With {@code willBeOn}, no method gets its copies inside its own body ({@link
     * MethodCopies#merge}), so that in that form no method but the roots and guards keeps a choice
     * at its entry or a body grown by its copies.
     */
    public Builder unitChoice(UnitChoice choice, Predicate<String> inScope, boolean willBeOn) {
      this.unitChoice = choice;
      this.inScope = inScope;
      this.separateCopies = willBeOn;
      return this;
    }

    public ClassInstrumenter build() {
      return new ClassInstrumenter(this);
    }
  }

  /** Whether a class outside the scope may hold a unit entry point; a cheap check of its bytes. */
  public boolean mightWrapUnits(String internalName, byte[] classFile) {
    return units.mightWrap(internalName, classFile);
  }

  /**
   * A class outside the scope with its unit entry points wrapped, or {@code null} when it has none.
   */
  public byte[] wrapUnitsOnly(byte[] classFile) {
    ClassReader reader = new ClassReader(classFile);
    ClassNode node = new ClassNode();
    reader.accept(node, ClassReader.EXPAND_FRAMES);
    int wrapped = units.wrap(node, false);
    if (wrapped == 0) {
      return null;
    }
    ClassWriter writer = new ClassWriter(reader, 0);
    node.accept(writer);
    byte[] out = writer.toByteArray();
    counters.unitsWrapped.addAndGet(wrapped);
    return out;
  }

  /**
   * The instrumented class file, or {@code null} when there is nothing to change (no probe points,
   * or the predicate budget is used up).
   *
   * @throws RuntimeException when the class file cannot be read or written; the caller leaves the
   *     class as it was
   */
  public byte[] instrument(byte[] classFile) {
    return instrument(classFile, true);
  }

  /**
   * As {@link #instrument(byte[])}; with {@code mayAddMethods} false, for a class being
   * retransformed, no method is added to the class ({@link LambdaSites}).
   */
  public byte[] instrument(byte[] classFile, boolean mayAddMethods) {
    Set<String> noFastPath = new HashSet<>();
    Set<String> leaveAlone = new HashSet<>();
    for (int attempt = 1; ; attempt++) {
      try {
        return instrument(classFile, mayAddMethods, noFastPath, leaveAlone);
      } catch (MethodTooLargeException e) {
        if (attempt == MAX_ATTEMPTS) {
          throw e;
        }
        // Too large with its fast path: try with checked probes only, then leave it alone.
        String method = MethodCopies.originalName(e.getMethodName()) + e.getDescriptor();
        if (!noFastPath.add(method)) {
          leaveAlone.add(method);
          counters.methodsSkipped.incrementAndGet();
        }
      }
    }
  }

  private byte[] instrument(
      byte[] classFile, boolean mayAddMethods, Set<String> noFastPath, Set<String> leaveAlone) {
    ClassReader reader = new ClassReader(classFile);
    ClassNode node = new ClassNode();
    reader.accept(node, ClassReader.EXPAND_FRAMES);
    if ((node.access & Opcodes.ACC_MODULE) != 0) {
      return null;
    }
    String className = node.name.replace('/', '.');
    int wrapped = units.wrap(node, true);
    LambdaSites lambdaSites = mayAddMethods ? LambdaSites.forClass(node) : null;
    List<MethodNode> methods = new ArrayList<>();
    List<List<ProbePoint>> plans = new ArrayList<>();
    List<ProbeFrames> frames = new ArrayList<>();
    List<FastPathPlan> fastPaths = new ArrayList<>();
    List<Site> sites = new ArrayList<>();
    List<MethodNode> owners = new ArrayList<>(); // the method each copy is of, or null
    List<MethodNode> depthCopies = new ArrayList<>();
    List<Boolean> countedMethods = new ArrayList<>();
    for (MethodNode own : node.methods) {
      if (!MethodPlanner.instrumentable(own) || leaveAlone.contains(own.name + own.desc)) {
        continue;
      }
      // Judged on the code as javac wrote it, before lambda sites move to methods of the class.
      boolean counted = units.enabled() && DepthCounting.counts(own);
      // With a copy, the probes go into the copy and the method keeps its own code.
      boolean copied = copies && mayAddMethods && MethodCopies.dispatchable(node, own);
      if (copied && lambdaSites != null && LambdaSites.createsLambdas(own)) {
        // The method's own code and its copies share each lambda site, so one class per lambda:
        // with a class per copy, the own code's lambdas met the copies' in the JDK's shared call
        // sites (HashMap.merge) and made them polymorphic, in the invocations not sampled too.
        lambdaSites.hoist(own);
      }
      MethodNode method = copied ? MethodCopies.copyOf(own) : own;
      MethodNode depthOnly = copied && counted ? MethodCopies.copyOf(own) : null;
      List<ProbePoint> points;
      ProbeFrames methodFrames;
      FastPathPlan fastPath = null;
      try {
        if (!MethodRewriter.framesExpanded(method)) {
          throw new IllegalArgumentException("compressed stack map frames");
        }
        points = MethodPlanner.plan(className, node.sourceFile, method, probes);
        boolean framed = !points.isEmpty() && ProbeFrames.needed(node.version, method);
        if (framed && probes.fastPath() && !noFastPath.contains(method.name + method.desc)) {
          fastPath = FastPathPlan.of(method, points);
          if (fastPath != null && lambdaSites != null && LambdaSites.createsLambdas(method)) {
            // One site per lambda in both copies; the code changed, so plan it again.
            lambdaSites.hoist(method);
            points = MethodPlanner.plan(className, node.sourceFile, method, probes);
            fastPath = FastPathPlan.of(method, points);
          }
        }
        methodFrames =
            framed ? ProbeFrames.of(node.name, method, points, fastPath) : ProbeFrames.NONE;
      } catch (RuntimeException e) {
        counters.methodsSkipped.incrementAndGet();
        continue;
      }
      if (points.removeIf(point -> !methodFrames.known(point.insn()))) { // dead code
        fastPath = null; // its weights counted the probes that are gone
      }
      if (!points.isEmpty() || (counted && DepthCounting.callsCountedCode(method))) {
        methods.add(method);
        countedMethods.add(counted);
        plans.add(points);
        frames.add(methodFrames);
        fastPaths.add(fastPath);
        owners.add(copied ? own : null);
        depthCopies.add(points.isEmpty() ? null : depthOnly);
        for (ProbePoint point : points) {
          sites.add(point.site());
        }
      }
    }
    if (methods.isEmpty() && wrapped == 0) {
      return null;
    }
    if (lambdaSites != null) {
      lambdaSites.addMethods();
    }
    int[] slots = registry.registerAll(sites);
    if (slots == null) {
      counters.classesOverBudget.incrementAndGet();
      return null;
    }
    int next = 0;
    int withFastPath = 0;
    for (int m = 0; m < methods.size(); m++) {
      List<ProbePoint> points = plans.get(m);
      int[] methodSlots = new int[points.size()];
      System.arraycopy(slots, next, methodSlots, 0, methodSlots.length);
      next += methodSlots.length;
      MethodNode method = methods.get(m);
      if (copies && owners.get(m) == null) {
        // Probes inline in a JVM that samples invocations: each sample is kept with the share.
        for (int i = 0; i < methodSlots.length; i++) {
          methodSlots[i] |= Probes.CHECK_SHARE;
        }
      }
      int methodId =
          countedMethods.get(m)
              ? this.methods.idOf(className, method.name, method.desc)
              : MethodRewriter.NO_DEPTH;
      if (MethodRewriter.rewrite(
          method, points, methodSlots, frames.get(m), methodId, fastPaths.get(m))) {
        withFastPath++;
      }
      MethodNode own = owners.get(m);
      if (own != null) {
        boolean guard = methodId != MethodRewriter.NO_DEPTH && guards.contains(methodId);
        addCopies(node, own, method, depthCopies.get(m), methodId, guard);
      }
    }
    StableLambdaSites.rewrite(node);
    // No COMPUTE_* flags: max stack and locals are adjusted by hand and the expanded frames are
    // written back compressed, so ASM never needs to load classes to merge types.
    ClassWriter writer = new ClassWriter(reader, 0);
    node.accept(writer);
    byte[] out = writer.toByteArray();
    counters.classesInstrumented.incrementAndGet();
    counters.unitsWrapped.addAndGet(wrapped);
    counters.methodsWithFastPath.addAndGet(withFastPath);
    return out;
  }

  /**
   * Adds the copies of {@code own} to the class and puts the dispatch to them in front of its code
   * ({@link MethodCopies}); {@code depthOnly}, when not {@code null}, still to be rewritten.
   */
  private void addCopies(
      ClassNode node,
      MethodNode own,
      MethodNode withProbes,
      MethodNode depthOnly,
      int methodId,
      boolean guard) {
    boolean wholeUnits = unitChoice.on();
    // A guard's entry tests whether the entries are open itself: its unit still needs the guard.
    boolean closable = closableEntries && !guard && !wholeUnits;
    String copied = own.name + MethodCopies.SUFFIX;
    String depth = copied + MethodCopies.DEPTH_SUFFIX;
    boolean recursesAlone = SelfCalls.recursesAlone(node.name, node.access, own);
    if (wholeUnits) {
      CopyCalls.rewrite(node, withProbes, inScope);
    }
    if (!recursesAlone && !separateCopies && MethodCopies.mergeable(own, withProbes, depthOnly)) {
      if (depthOnly != null) {
        MethodRewriter.rewrite(depthOnly, List.of(), new int[0], ProbeFrames.NONE, methodId);
      }
      String entry =
          wholeUnits ? (guard ? "worldGuardEntry" : "worldEntry") : entryFor(own, methodId, guard);
      MethodCopies.merge(own, node.name, withProbes, depthOnly, entry, closable);
      return;
    }
    if (recursesAlone) {
      // One decision per recursion: each code's calls to itself stay in it.
      String plainName = copied + MethodCopies.OWN_SUFFIX;
      MethodNode plain = MethodCopies.copyOf(own);
      for (MethodNode code : new MethodNode[] {plain, own}) {
        SelfCalls.retarget(node.name, node.access, own, code, plainName);
      }
      SelfCalls.retarget(node.name, node.access, own, withProbes, copied);
      if (depthOnly != null) {
        SelfCalls.retarget(node.name, node.access, own, depthOnly, depth);
      }
      MethodCopies.rename(plain, plainName);
      node.methods.add(plain);
    }
    MethodCopies.rename(withProbes, copied);
    node.methods.add(withProbes);
    if (depthOnly != null) {
      MethodRewriter.rewrite(depthOnly, List.of(), new int[0], ProbeFrames.NONE, methodId);
      MethodCopies.rename(depthOnly, depth);
      node.methods.add(depthOnly);
    }
    String entry =
        !wholeUnits
            ? entryFor(own, methodId, guard)
            : guard
                ? "worldGuardEntry"
                : recursesAlone || unitChoice.isRoot(methodId) ? "worldEntry" : null;
    MethodNode chooser;
    if (entry != null) {
      chooser = MethodCopies.dispatch(node.name, own, withProbes, depthOnly, entry, closable);
    } else {
      // No choice at this entry: the method keeps the code javac wrote, and the chooser only the
      // place it has in every form of the class (a retransformation may not remove a method).
      chooser =
          depthOnly == null ? null : MethodCopies.chooser(node.name, own, withProbes, depthOnly);
    }
    if (chooser != null) {
      node.methods.add(chooser);
    }
  }

  /** Which of {@code Entries}' entries the dispatch of {@code own} asks. */
  private static String entryFor(MethodNode own, int methodId, boolean guard) {
    boolean counted = methodId != MethodRewriter.NO_DEPTH;
    // A short method follows the thread's last choice, drawing nothing: the countdown step cost
    // it as much as its own code (Entries.followingEntry).
    if (DepthCounting.isShort(own)) {
      return !counted ? "followingEntry" : guard ? "followingGuardEntry" : "followingCountedEntry";
    }
    return !counted ? "sampledEntry" : guard ? "guardEntry" : "entry";
  }
}
