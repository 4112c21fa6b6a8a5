package dev.whyslow.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.whyslow.agent.bootstrap.ChunkedRunCounts;
import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.core.SiteRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import sample.fixture.callers.Orders;

/**
 * Short methods of a package that only its own code can call keep their code as javac wrote it, and
 * their probes run when a caller's copy with probes calls their copy ({@link CallerSampled}, {@link
 * CallerCalls}): results, exceptions and samples stay right, and a caller whose guess about a
 * callee is wrong still runs.
 */
class CallerSampledTest {
  private static final String PACKAGE = "sample.fixture.callers.";

  private SiteRegistry registry;
  private ChunkedRunCounts counts;

  @BeforeEach
  void recordIntoACountOfOurOwn() {
    registry = new SiteRegistry(10_000);
    counts = new ChunkedRunCounts(registry.slotCapacity());
    Probes.setProcessRun(counts);
  }

  @AfterEach
  void restoreProbes() {
    CopiedFixtures.uninstall();
  }

  @Test
  void aShortMethodOnlyThePackageCanCallKeepsJavacsCodeAndGetsACopyItsCallersCall()
      throws Exception {
    ClassNode stock = instrumented("Stock");
    for (String name : List.of("count", "clamp", "checked", "empty")) {
      assertThat(probeCalls(CopiedFixtures.method(stock, name))).as(name).isEmpty();
      MethodNode copy = CopiedFixtures.method(stock, name + MethodCopies.SUFFIX);
      assertThat(copy.access & (Opcodes.ACC_PUBLIC | Opcodes.ACC_PROTECTED)).isZero();
      assertThat(copy.access & Opcodes.ACC_SYNTHETIC).as(name).isNotZero();
      assertThat(probeCalls(copy)).as(name).isNotEmpty();
    }
    assertThat(CopiedFixtures.method(stock, "empty$whyslow").access & Opcodes.ACC_PRIVATE)
        .isNotZero();
    assertThat(CopiedFixtures.method(stock, "count$whyslow").access & Opcodes.ACC_FINAL)
        .as("no subclass can override it")
        .isNotZero();
    assertThat(probeCalls(CopiedFixtures.method(stock, "publicCount")))
        .as("callers outside the package may call it: it keeps its entry")
        .contains("followingEntry");
    ClassNode shelf = instrumented("Shelf");
    assertThat(probeCalls(CopiedFixtures.method(shelf, "place"))).contains("followingEntry");
    assertThat(probeCalls(CopiedFixtures.method(shelf, "slot"))).isEmpty();
  }

  @Test
  void aClassThatMayBeSerializedKeepsItsSerialFormOnlyItsPrivateMethodsAreSampledFromCallers()
      throws Exception {
    ClassNode crate = instrumented("Crate");
    assertThat(probeCalls(CopiedFixtures.method(crate, "fit"))).contains("followingEntry");
    assertThat(probeCalls(CopiedFixtures.method(crate, "half"))).isEmpty();
    assertThat(CopiedFixtures.method(crate, "half$whyslow").access & Opcodes.ACC_PRIVATE)
        .isNotZero();
    assertThat(crate.methods)
        .filteredOn(m -> (m.access & Opcodes.ACC_PRIVATE) == 0)
        .extracting(m -> m.name)
        .containsExactlyInAnyOrder("<init>", "fit", "halfFit");
  }

  @Test
  void onlyTheCallersCopyWithProbesCallsTheCopiesTheOwnCodeCallsTheMethods() throws Exception {
    ClassNode orders = instrumented("Orders");
    assertThat(helperCalls(CopiedFixtures.method(orders, "total"))).isEmpty();
    MethodNode withProbes = CopiedFixtures.method(orders, "total" + MethodCopies.SUFFIX);
    assertThat(helperCalls(withProbes)).isNotEmpty();
    // badItem's copy calls checked's. Not restock (it calls the application), place
    // (overridable), publicCount (public), halfFit.
    assertThat(helperTargets(orders))
        .containsExactlyInAnyOrder(
            "count$whyslow", "clamp$whyslow", "slot$whyslow", "checked$whyslow");
    MethodNode depthOnly =
        CopiedFixtures.method(orders, "total" + MethodCopies.SUFFIX + MethodCopies.DEPTH_SUFFIX);
    assertThat(helperCalls(depthOnly)).isEmpty();
    ClassNode stock = instrumented("Stock");
    assertThat(calledNames(CopiedFixtures.method(stock, "restock$whyslow")))
        .contains("empty$whyslow");
    assertThat(calledNames(CopiedFixtures.method(stock, "restock"))).contains("empty");
  }

  @Test
  void resultsAndExceptionsAreJavacsSampledOrNot() throws Exception {
    long expected = Orders.total(40);
    Class<?> orders = load(name -> true);
    for (boolean sampled : new boolean[] {true, false}) {
      if (sampled) {
        Probes.setSamplingRate(1.0);
      } else {
        Probes.setSamplingRate(1e-6, 1e-6);
      }
      assertThat(orders.getMethod("total", int.class).invoke(null, 40)).isEqualTo(expected);
      assertThatThrownBy(() -> orders.getMethod("badItem").invoke(null))
          .isInstanceOf(InvocationTargetException.class)
          .cause()
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("no item -5");
    }
  }

  @Test
  void aCalleesProbesRunExactlyWhenItsCallerRunsItsCopy() throws Exception {
    Class<?> orders = load(name -> true);
    Probes.setSamplingRate(1e-6, 1e-6);
    orders.getMethod("total", int.class).invoke(null, 40);
    assertThat(CopiedFixtures.total(counts)).as("no invocation sampled").isZero();
    Probes.setSamplingRate(1.0);
    orders.getMethod("total", int.class).invoke(null, 40);
    // Stock.clamp is called 40 times from the sampled total: its return, every time.
    assertThat(countsOf("sample.fixture.callers.Stock", "clamp")).isEqualTo(2 * 40);
    assertThat(countsOf("sample.fixture.callers.Shelf", "slot")).isEqualTo(2 * 40);
  }

  @Test
  void aCallerWhoseCalleeHasNoCopyFallsBackToTheMethodAndRemembersIt() throws Exception {
    long expected = Orders.total(40);
    // Orders is instrumented and guesses the copies; its package loads as javac wrote it.
    Class<?> orders = load(name -> name.endsWith("Orders"));
    Probes.setSamplingRate(1.0);
    assertThat(orders.getMethod("total", int.class).invoke(null, 40)).isEqualTo(expected);
    assertThat(orders.getMethod("total", int.class).invoke(null, 40)).isEqualTo(expected);
    List<String> missing = new ArrayList<>();
    for (Field flag : orders.getDeclaredFields()) {
      if (flag.getName().startsWith(CallerCalls.MISSING_PREFIX)) {
        flag.setAccessible(true);
        if (flag.getBoolean(null)) {
          missing.add(flag.getName());
        }
      }
    }
    assertThat(missing).hasSize(3); // Stock.count, Stock.clamp, Shelf.slot
  }

  /** The probe entry points and probes {@code code} calls, by name. */
  private static List<String> probeCalls(MethodNode code) {
    List<String> names = new ArrayList<>();
    for (AbstractInsnNode insn : code.instructions) {
      if (insn instanceof MethodInsnNode call
          && call.owner.startsWith("dev/whyslow/agent/bootstrap/")) {
        names.add(call.name);
      }
    }
    return names;
  }

  /** The helpers {@code code} calls, by name. */
  private static List<String> helperCalls(MethodNode code) {
    List<String> names = new ArrayList<>();
    for (String name : calledNames(code)) {
      if (name.startsWith(CallerCalls.HELPER_PREFIX)) {
        names.add(name);
      }
    }
    return names;
  }

  /** The copies the helpers of {@code node} call. */
  private static List<String> helperTargets(ClassNode node) {
    List<String> targets = new ArrayList<>();
    for (MethodNode helper : node.methods) {
      if (helper.name.startsWith(CallerCalls.HELPER_PREFIX)) {
        for (String name : calledNames(helper)) {
          if (name.endsWith(MethodCopies.SUFFIX)) {
            targets.add(name);
          }
        }
      }
    }
    return targets;
  }

  private static List<String> calledNames(MethodNode code) {
    List<String> names = new ArrayList<>();
    for (AbstractInsnNode insn : code.instructions) {
      if (insn instanceof MethodInsnNode call) {
        names.add(call.name);
      }
    }
    return names;
  }

  /** What the run counted at the sites of {@code method} of {@code className}. */
  private long countsOf(String className, String method) {
    long sum = 0;
    for (SiteRegistry.Entry entry : registry.entries()) {
      if (entry.site().className().equals(className) && entry.site().methodName().equals(method)) {
        sum += counts.get(entry.slot()); // the site's own count: evaluations sampled
      }
    }
    return sum;
  }

  private ClassNode instrumented(String simpleName) throws IOException {
    ClassNode node = new ClassNode();
    new ClassReader(instrument(PACKAGE + simpleName)).accept(node, 0);
    return node;
  }

  private byte[] instrument(String className) throws IOException {
    return instrumenter().instrument(classFile(className), true, neighbours());
  }

  private ClassInstrumenter instrumenter() {
    return CopiedFixtures.instrumenter(registry, true);
  }

  private static ClassFiles neighbours() {
    return new ClassFiles(CallerSampledTest::neighbour, new ClassFiles.Memory());
  }

  private static byte[] neighbour(String internalName) {
    try {
      return classFile(internalName.replace('/', '.'));
    } catch (IOException e) {
      return null;
    }
  }

  private static byte[] classFile(String className) throws IOException {
    String resource = "/" + className.replace('.', '/') + ".class";
    try (InputStream in = CallerSampledTest.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IOException("no class file " + resource);
      }
      return in.readAllBytes();
    }
  }

  /** {@code Orders} in a loader of its own, with the package's classes instrumented as asked. */
  private Class<?> load(Predicate<String> instrumentedClass) throws Exception {
    ClassInstrumenter instrumenter = instrumenter();
    ClassFiles neighbours = neighbours();
    ClassLoader loader =
        new ClassLoader(CallerSampledTest.class.getClassLoader()) {
          @Override
          protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith(PACKAGE)) {
              return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
              Class<?> c = findLoadedClass(name);
              if (c != null) {
                return c;
              }
              try {
                byte[] bytes = classFile(name);
                if (instrumentedClass.test(name)) {
                  byte[] out = instrumenter.instrument(bytes, true, neighbours);
                  bytes = out != null ? out : bytes;
                }
                return defineClass(name, bytes, 0, bytes.length);
              } catch (IOException e) {
                throw new ClassNotFoundException(name, e);
              }
            }
          }
        };
    return Class.forName(Orders.class.getName(), true, loader);
  }
}
