package dev.whyslow.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.agent.config.ProbeSet;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;

class TrivialMethodTest {

  /**
   * Fixture: accessors and constants are trivial; anything that branches, calls or loops is not.
   */
  @SuppressWarnings("unused")
  static final class Shapes {
    private int size;
    private String name = "x";
    private boolean valid;

    int size() {
      return size;
    }

    String name() {
      return name;
    }

    boolean valid() {
      return valid;
    }

    int doubled() {
      return size * 2 + 1;
    }

    boolean isEmpty() {
      return size == 0; // a jump
    }

    int length() {
      return name.length(); // a call
    }

    int sum(int[] values) {
      int s = 0;
      for (int v : values) {
        s += v;
      }
      return s;
    }
  }

  @Test
  void accessorsAndConstantsAreTrivialAndGetNoReturnProbe() throws IOException {
    Map<String, MethodNode> methods = methods(Shapes.class);
    for (String name : new String[] {"size", "name", "valid", "doubled"}) {
      MethodNode method = methods.get(name);
      assertThat(MethodPlanner.isTrivial(method)).as(name).isTrue();
      assertThat(plan(method)).as(name).isZero();
    }
  }

  @Test
  void methodsThatBranchCallOrLoopKeepTheirReturnProbes() throws IOException {
    Map<String, MethodNode> methods = methods(Shapes.class);
    for (String name : new String[] {"isEmpty", "length", "sum"}) {
      MethodNode method = methods.get(name);
      assertThat(MethodPlanner.isTrivial(method)).as(name).isFalse();
      assertThat(plan(method)).as(name).isPositive();
    }
  }

  private static int plan(MethodNode method) {
    return MethodPlanner.plan(
            Shapes.class.getName(), "TrivialMethodTest.java", method, new ProbeSet(false, true))
        .size();
  }

  private static Map<String, MethodNode> methods(Class<?> c) throws IOException {
    String resource = c.getName().replace('.', '/') + ".class";
    try (InputStream in = c.getClassLoader().getResourceAsStream(resource)) {
      ClassNode node = new ClassNode();
      new ClassReader(in.readAllBytes()).accept(node, ClassReader.EXPAND_FRAMES);
      Map<String, MethodNode> byName = new HashMap<>();
      for (MethodNode m : node.methods) {
        byName.put(m.name, m);
      }
      return byName;
    }
  }
}
