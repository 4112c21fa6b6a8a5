package dev.whyslow.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.bootstrap.ThreadState;
import dev.whyslow.agent.config.ProbeSet;
import dev.whyslow.agent.core.SiteRegistry;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntSupplier;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;
import sample.fixture.LambdaMaker;

class LambdaSitesTest {
  private static final int[] XS = {3, -1, 4, 1, -5, 9, 2, -6};

  @AfterEach
  void restoreProbes() {
    Probes.setSamplingRate(1e-4);
  }

  @Test
  void bothCopiesOfAMethodCreateALambdaFromOneSite() throws Exception {
    Class<?> maker = load(instrumented(true));
    Method constant = maker.getMethod("constantAfterLoop", int[].class);

    IntSupplier fromFastCopy = (IntSupplier) callWithCountdown(constant, 1_000_000);
    IntSupplier fromSlowCopy = (IntSupplier) callWithCountdown(constant, 1);

    assertThat(fromFastCopy.getAsInt()).isEqualTo(42);
    assertThat(fromSlowCopy)
        .as("a non-capturing lambda is one object per site")
        .isSameAs(fromFastCopy);
  }

  @Test
  void capturingLambdasAndMethodReferencesKeepOneClassEach() throws Exception {
    Class<?> maker = load(instrumented(true));
    Set<Class<?>> offsetKeys = new HashSet<>();
    Set<Class<?>> lengthKeys = new HashSet<>();

    for (int start : new int[] {1_000_000, 1, 1_000_000, 1}) {
      @SuppressWarnings("unchecked")
      ToLongFunction<int[]> offset =
          (ToLongFunction<int[]>)
              callWithCountdown(maker.getMethod("offsetKey", int[].class), start);
      @SuppressWarnings("unchecked")
      ToIntFunction<int[]> length =
          (ToIntFunction<int[]>)
              callWithCountdown(maker.getMethod("lengthKey", int[].class), start);
      assertThat(offset.applyAsLong(new int[] {10})).isEqualTo(10 + Arrays.stream(XS).sum());
      assertThat(length.applyAsInt(new int[3])).isEqualTo(3);
      offsetKeys.add(offset.getClass());
      lengthKeys.add(length.getClass());
    }

    assertThat(offsetKeys).as("classes of the capturing lambda, from either copy").hasSize(1);
    assertThat(lengthKeys).as("classes of the method reference, from either copy").hasSize(1);
  }

  @Test
  void lambdaSitesMoveIntoPrivateStaticMethodsOnlyWhenMethodsMayBeAdded() throws Exception {
    List<MethodNode> defined = methodsOf(instrumented(true));
    List<MethodNode> retransformed = methodsOf(instrumented(false));

    assertThat(defined)
        .filteredOn(m -> m.name.startsWith("whyslow$lambda$"))
        .hasSize(4)
        .allMatch(
            m ->
                (m.access & (Modifier.PRIVATE | Modifier.STATIC))
                    == (Modifier.PRIVATE | Modifier.STATIC));
    assertThat(retransformed).noneMatch(m -> m.name.startsWith("whyslow$lambda$"));
  }

  /**
   * Calls the method in its fast copy ({@code start} far above its evaluations) or, with {@code
   * start} 1, in its slow copy throughout: at rate 1 every evaluation is sampled and every draw is
   * 1 again, so no region check ever passes.
   */
  private static Object callWithCountdown(Method method, int start) throws Exception {
    Probes.setSamplingRate(start == 1 ? 1.0 : 1e-6);
    ThreadState s = Probes.state();
    s.countdown = start;
    return method.invoke(null, (Object) XS);
  }

  private static byte[] instrumented(boolean mayAddMethods) throws Exception {
    InstrumentationCounters counters = new InstrumentationCounters();
    ClassInstrumenter instrumenter =
        new ClassInstrumenter(new SiteRegistry(10_000), ProbeSet.DEFAULT, counters);
    byte[] original;
    try (InputStream in = LambdaMaker.class.getResourceAsStream("LambdaMaker.class")) {
      original = in.readAllBytes();
    }
    byte[] out = instrumenter.instrument(original, mayAddMethods);
    assertThat(counters.methodsWithFastPath()).as("methods given a fast path").isEqualTo(3);
    return out;
  }

  private static Class<?> load(byte[] bytes) throws Exception {
    return Class.forName(
        LambdaMaker.class.getName(), true, new BytesLoader(LambdaMaker.class, bytes));
  }

  private static List<MethodNode> methodsOf(byte[] classFile) {
    ClassNode node = new ClassNode();
    new ClassReader(classFile).accept(node, 0);
    return node.methods;
  }
}
