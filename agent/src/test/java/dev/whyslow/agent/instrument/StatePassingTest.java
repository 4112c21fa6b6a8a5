package dev.whyslow.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.whyslow.agent.bootstrap.ChunkedRunCounts;
import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.core.SiteRegistry;
import java.io.IOException;
import java.io.InputStream;
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
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.MethodNode;
import sample.fixture.state.Orders;

/**
 * Instrumented code passes its thread state to the short methods of its package that cannot be
 * overridden ({@link StateVariants}, {@link StatePassing}): results, exceptions and samples are
 * those of the plain calls, and a caller whose callee has no variant still runs.
 */
class StatePassingTest {
  private static final String PACKAGE = "sample.fixture.state.";

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
  void aShortMethodThatCannotBeOverriddenGetsASyntheticVariantOutsideThePackagesView()
      throws Exception {
    ClassNode stock = instrumented("Stock");
    for (String name : List.of("count", "clamp", "checked")) {
      MethodNode variant = variant(stock, name);
      assertThat(variant.access & (Opcodes.ACC_PUBLIC | Opcodes.ACC_PROTECTED)).isZero();
      assertThat(variant.access & Opcodes.ACC_SYNTHETIC).as(name).isNotZero();
      assertThat(variant.desc).endsWith("Ldev/whyslow/agent/bootstrap/ThreadState;)I");
    }
    assertThat(variant(stock, "empty").access & Opcodes.ACC_PRIVATE).isNotZero();
    assertThat(stock.methods).noneMatch(m -> m.name.equals("size") && StateVariants.isVariant(m));
    ClassNode shelf = instrumented("Shelf");
    assertThat(shelf.methods).noneMatch(m -> m.name.equals("place") && StateVariants.isVariant(m));
    MethodNode slot = variant(shelf, "slot");
    assertThat(slot.access & Opcodes.ACC_FINAL).as("no subclass can clash with it").isNotZero();
  }

  @Test
  void callersInThePackagePassTheirStateToEveryVariantAndToNothingElse() throws Exception {
    ClassNode orders = instrumented("Orders");
    MethodNode own = CopiedFixtures.method(orders, "total");
    assertThat(passedTo(own))
        .containsExactlyInAnyOrder("restock", "count", "clamp", "slot", "count");
    MethodNode depthOnly =
        CopiedFixtures.method(orders, "total" + MethodCopies.SUFFIX + MethodCopies.DEPTH_SUFFIX);
    assertThat(passedTo(depthOnly)).hasSize(5);
    MethodNode withProbes = CopiedFixtures.method(orders, "total" + MethodCopies.SUFFIX);
    assertThat(passedTo(withProbes)).hasSizeGreaterThanOrEqualTo(5);
    ClassNode stock = instrumented("Stock");
    assertThat(passedTo(CopiedFixtures.method(stock, "restock"))).containsExactly("empty");
  }

  @Test
  void resultsAndExceptionsAreThePlainCodesSampledOrNot() throws Exception {
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
  void aCalleeReachedThroughItsVariantRunsItsProbesWhenItsCallerWasSampled() throws Exception {
    Class<?> orders = load(name -> true);
    Probes.setSamplingRate(1e-6, 1e-6);
    orders.getMethod("total", int.class).invoke(null, 40);
    assertThat(CopiedFixtures.total(counts)).as("no invocation sampled").isZero();
    Probes.setSamplingRate(1.0);
    orders.getMethod("total", int.class).invoke(null, 40);
    // Stock.clamp's return is recorded only in its copy with probes: through the variant, it ran.
    assertThat(countsOf("sample.fixture.state.Stock", "clamp")).isPositive();
  }

  @Test
  void aCallerWhoseCalleeHasNoVariantCallsThePlainMethod() throws Exception {
    long expected = Orders.total(40);
    // Orders is instrumented and guesses the variants; Stock and Shelf load as javac wrote them.
    Class<?> orders = load(name -> name.endsWith("Orders"));
    Probes.setSamplingRate(1.0);
    assertThat(orders.getMethod("total", int.class).invoke(null, 40)).isEqualTo(expected);
    Probes.setSamplingRate(1e-6, 1e-6);
    assertThat(orders.getMethod("total", int.class).invoke(null, 40)).isEqualTo(expected);
  }

  /** The variant of the method {@code name}: the same name, the state last. */
  private static MethodNode variant(ClassNode node, String name) {
    return node.methods.stream()
        .filter(m -> m.name.equals(name) && StateVariants.isVariant(m))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no variant of " + name));
  }

  /** What the run counted at the sites of {@code method} of {@code className}. */
  private long countsOf(String className, String method) {
    long sum = 0;
    for (SiteRegistry.Entry entry : registry.entries()) {
      if (entry.site().className().equals(className) && entry.site().methodName().equals(method)) {
        int predicates = entry.site().kind().predicateCount();
        for (int p = 0; p <= predicates; p++) { // the site's own count, then each predicate's
          sum += counts.get(entry.slot() + p);
        }
      }
    }
    return sum;
  }

  /** The names of the methods whose variant {@code code} calls. */
  private static List<String> passedTo(MethodNode code) {
    List<String> names = new ArrayList<>();
    for (AbstractInsnNode insn : code.instructions) {
      if (insn instanceof InvokeDynamicInsnNode indy
          && indy.bsm.getOwner().equals("dev/whyslow/agent/bootstrap/StateCalls")) {
        names.add(indy.name);
      }
    }
    return names;
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
    return new ClassFiles(StatePassingTest::neighbour, new ClassFiles.Memory());
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
    try (InputStream in = StatePassingTest.class.getResourceAsStream(resource)) {
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
        new ClassLoader(StatePassingTest.class.getClassLoader()) {
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
