package dev.whyslow.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.agent.config.ProbeSet;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;

class LambdaGlueTest {

  /** Fixture: one lambda of each shape, and a named method shaped like the glue one. */
  @SuppressWarnings("unused")
  static final class Shapes {
    record Item(String name, int rank) {}

    /** Glue: a key extractor, straight line, calling the application's accessors. */
    static Comparator<Item> byNameLength() {
      return Comparator.comparingInt(item -> item.name().length() + item.rank());
    }

    /** A lambda that branches: instrumented as any method. */
    static Function<Item, Integer> clamped() {
      return item -> item.rank() > 9 ? 9 : item.rank();
    }

    /** A lambda that throws. */
    static Supplier<Item> failing() {
      return () -> {
        throw new IllegalStateException("no item");
      };
    }

    /** Named, and as straight as the glue: its value goes back to the application. */
    static Item lookup(Map<String, Item> items, String name) {
      return items.get(name);
    }
  }

  @Test
  void aStraightLambdaIsGlueWithNeitherReturnProbeNorDepthCount() throws IOException {
    MethodNode glue = lambdaOf("byNameLength");

    assertThat(LambdaGlue.isGlue(glue)).isTrue();
    assertThat(returnProbes(glue)).isZero();
    assertThat(DepthCounting.counts(glue)).isFalse();
  }

  @Test
  void lambdasThatBranchOrThrowAreInstrumentedAsAnyMethod() throws IOException {
    MethodNode branching = lambdaOf("clamped");
    MethodNode throwing = lambdaOf("failing");

    assertThat(LambdaGlue.isGlue(branching)).isFalse();
    assertThat(returnProbes(branching)).isPositive();
    assertThat(LambdaGlue.isGlue(throwing)).isFalse();
  }

  @Test
  void aNamedMethodAsStraightAsGlueKeepsItsReturnProbe() throws IOException {
    // The cache lookup whose null return is the root cause in TemplateCacheMiss looks like this.
    MethodNode lookup = method(m -> m.name.equals("lookup"));

    assertThat(LambdaGlue.isGlue(lookup)).isFalse();
    assertThat(returnProbes(lookup)).isEqualTo(1);
  }

  private static int returnProbes(MethodNode method) {
    return MethodPlanner.plan(
            Shapes.class.getName(), "LambdaGlueTest.java", method, new ProbeSet(false, true))
        .size();
  }

  private static MethodNode lambdaOf(String enclosing) throws IOException {
    return method(m -> m.name.startsWith("lambda$" + enclosing + "$"));
  }

  private static MethodNode method(Predicate<MethodNode> which) throws IOException {
    String resource = Shapes.class.getName().replace('.', '/') + ".class";
    try (InputStream in = Shapes.class.getClassLoader().getResourceAsStream(resource)) {
      ClassNode node = new ClassNode();
      new ClassReader(in.readAllBytes()).accept(node, ClassReader.EXPAND_FRAMES);
      List<MethodNode> found = new ArrayList<>();
      for (MethodNode m : node.methods) {
        if (which.test(m)) {
          found.add(m);
        }
      }
      assertThat(found).hasSize(1);
      return found.get(0);
    }
  }
}
