package dev.whyslow.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.agent.config.ProbeSet;
import dev.whyslow.agent.core.MethodRegistry;
import dev.whyslow.agent.core.SiteRegistry;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntSupplier;
import java.util.function.IntUnaryOperator;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;
import net.bytebuddy.agent.ByteBuddyAgent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A class the agent instrumented as it loaded, with copies, retransformed later (by the agent
 * itself, or by another agent in the same JVM): the transformer must give it the same methods
 * again, since a retransformation may not add or remove any, or the JVM refuses it. And the class
 * keeps its lambda classes: each of its lambda sites is linked again after a retransformation, and
 * a new class per link would reach the JDK's shared call sites (a sort's comparator calls) and make
 * them polymorphic for every caller.
 */
class RetransformationTest {
  /** By name only: the fixture class must not load through the test's own class loader here. */
  private static final String FIXTURE = "sample.fixture.";

  private Instrumentation instrumentation;
  private InstrumentationCounters counters;
  private ProbeTransformer transformer;
  private final List<String> failures = new CopyOnWriteArrayList<>();

  @BeforeEach
  void installTransformer() {
    instrumentation = ByteBuddyAgent.install();
    counters = new InstrumentationCounters();
    ClassInstrumenter instrumenter =
        ClassInstrumenter.builder(new SiteRegistry(10_000), ProbeSet.DEFAULT, counters)
            .methods(new MethodRegistry())
            .units(true, List.of())
            .copies(true)
            .guards(new GuardMethods())
            .build();
    transformer =
        new ProbeTransformer(
            new Scope(List.of(FIXTURE + "Branchy", FIXTURE + "LambdaKinds"), List.of()),
            instrumenter,
            counters,
            instrumentation,
            (name, error) -> failures.add(name + ": " + error));
    instrumentation.addTransformer(transformer, true);
  }

  @AfterEach
  void removeTransformer() {
    instrumentation.removeTransformer(transformer);
    CopiedFixtures.uninstall();
  }

  @Test
  void aClassWithCopiesIsRetransformedWithTheSameMethods() throws Exception {
    Class<?> branchy = new IsolatedLoader(FIXTURE).loadClass(FIXTURE + "Branchy");
    List<String> before = methodNames(branchy);
    assertThat(before).anyMatch(name -> name.contains(MethodCopies.SUFFIX));

    instrumentation.retransformClasses(branchy);

    assertThat(failures).isEmpty();
    assertThat(counters.classesInstrumented()).isEqualTo(1);
    assertThat(counters.classesReinstrumented()).isEqualTo(1);
    assertThat(methodNames(branchy)).isEqualTo(before);
    // Not Branchy.sign itself: this class's own Branchy would load through the transformer.
    Method sign = branchy.getMethod("sign", int.class);
    assertThat(List.of(sign.invoke(null, 5), sign.invoke(null, -3), sign.invoke(null, 0)))
        .containsExactly(1, -1, 0);
  }

  @Test
  void aClassLoadedBeforeTheAgentIsRetransformedWithoutCopies() throws Exception {
    Class<?> branchy;
    instrumentation.removeTransformer(transformer);
    try {
      branchy = new IsolatedLoader(FIXTURE).loadClass(FIXTURE + "Branchy");
    } finally {
      instrumentation.addTransformer(transformer, true);
    }
    List<String> before = methodNames(branchy);

    instrumentation.retransformClasses(branchy);

    assertThat(failures).isEmpty();
    assertThat(counters.classesInstrumented()).isEqualTo(1);
    assertThat(methodNames(branchy)).isEqualTo(before);
    assertThat(branchy.getMethod("sign", int.class).invoke(null, -3)).isEqualTo(-1);
  }

  @Test
  void eachLambdaKeepsItsClassThroughRetransformations() throws Exception {
    Class<?> kinds = new IsolatedLoader(FIXTURE).loadClass(FIXTURE + "LambdaKinds");
    List<Object> before = lambdas(kinds);

    instrumentation.retransformClasses(kinds);
    instrumentation.retransformClasses(kinds);
    List<Object> after = lambdas(kinds);

    assertThat(failures).isEmpty();
    for (int i = 0; i < before.size(); i++) {
      assertThat(after.get(i).getClass()).isSameAs(before.get(i).getClass());
    }
    assertThat(after.get(0)).as("a non-capturing lambda is one object").isSameAs(before.get(0));
    assertThat(((IntSupplier) after.get(0)).getAsInt()).isEqualTo(42);
    assertThat(((IntUnaryOperator) after.get(1)).applyAsInt(2)).isEqualTo(9);
    @SuppressWarnings("unchecked")
    ToIntFunction<String> length = (ToIntFunction<String>) after.get(2);
    assertThat(length.applyAsInt("four")).isEqualTo(4);
    assertThat(kinds.getMethod("sign", int.class).invoke(null, -3)).isEqualTo(-1);
  }

  @Test
  void aSerializableLambdaStillRoundTripsAfterARetransformation() throws Exception {
    Class<?> kinds = new IsolatedLoader(FIXTURE).loadClass(FIXTURE + "LambdaKinds");
    Object original = kinds.getMethod("serializable", String.class).invoke(null, "kept");

    instrumentation.retransformClasses(kinds);
    Object copy = roundTrip(original, kinds.getClassLoader());

    assertThat(failures).isEmpty();
    assertThat(copy.getClass()).isSameAs(original.getClass());
    @SuppressWarnings("unchecked")
    Supplier<String> supplier = (Supplier<String>) copy;
    assertThat(supplier.get()).isEqualTo("kept");
  }

  /** The constant, the adder of 7, the method reference and the serializable supplier. */
  private static List<Object> lambdas(Class<?> kinds) throws Exception {
    Method adding = kinds.getMethod("adding", int.class);
    return List.of(
        kinds.getMethod("constant").invoke(null),
        adding.invoke(null, 7),
        kinds.getMethod("length").invoke(null),
        kinds.getMethod("serializable", String.class).invoke(null, "s"));
  }

  private static Object roundTrip(Object value, ClassLoader loader) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(value);
    }
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray())) {
          @Override
          protected Class<?> resolveClass(ObjectStreamClass desc)
              throws IOException, ClassNotFoundException {
            return Class.forName(desc.getName(), false, loader);
          }
        }) {
      return in.readObject();
    }
  }

  private static List<String> methodNames(Class<?> c) {
    return Arrays.stream(c.getDeclaredMethods())
        .map(m -> m.getName() + Arrays.toString(m.getParameterTypes()))
        .sorted()
        .toList();
  }
}
