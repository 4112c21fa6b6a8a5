package dev.whyslow.agent.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import org.junit.jupiter.api.Test;

/**
 * A call that passes the state links to the callee's variant when it has one, to the plain method
 * with the state dropped when it has not, and to the error the plain call would have thrown when
 * the callee cannot be called at all.
 */
class StateCallsTest {
  private static final String OWNER = "dev/whyslow/agent/bootstrap/StateCallsTest$Callee";
  private static final ThreadState STATE = Probes.state();

  /** A callee as the agent leaves it: {@code twice} has a variant, {@code half} none. */
  static final class Callee {
    static int calls;

    final int twice(int n) {
      return 2 * n;
    }

    final int twice(int n, ThreadState s) {
      calls++;
      return 2 * n;
    }

    static int half(int n) {
      return n / 2;
    }
  }

  @Test
  void aCallToAMethodWithAVariantRunsTheVariant() throws Throwable {
    MethodType type = MethodType.methodType(int.class, Callee.class, int.class, ThreadState.class);
    MethodHandle call = link("twice", type, StateCalls.VIRTUAL);
    int before = Callee.calls;
    assertThat((int) call.invokeExact(new Callee(), 21, STATE)).isEqualTo(42);
    assertThat(Callee.calls).isEqualTo(before + 1);
  }

  @Test
  void aCallToAMethodWithoutAVariantRunsThePlainMethod() throws Throwable {
    MethodType type = MethodType.methodType(int.class, int.class, ThreadState.class);
    MethodHandle call = link("half", type, StateCalls.STATIC);
    assertThat((int) call.invokeExact(42, STATE)).isEqualTo(21);
  }

  @Test
  void aMissingMethodThrowsWhatThePlainCallWouldHaveWhenCalledNotWhenLinked() throws Throwable {
    MethodType type = MethodType.methodType(int.class, int.class, ThreadState.class);
    MethodHandle call = link("gone", type, StateCalls.STATIC);
    assertThatThrownBy(() -> call.invoke(1, STATE))
        .isInstanceOf(NoSuchMethodError.class)
        .hasMessageContaining("StateCallsTest$Callee.gone(I)I");
  }

  @Test
  void aMissingClassThrowsNoClassDefFoundError() throws Throwable {
    MethodType type = MethodType.methodType(void.class, ThreadState.class);
    MethodHandle call =
        StateCalls.link(MethodHandles.lookup(), "run", type, "no/such/Owner", StateCalls.STATIC)
            .dynamicInvoker();
    assertThatThrownBy(() -> call.invoke(STATE))
        .isInstanceOf(NoClassDefFoundError.class)
        .hasMessageContaining("no/such/Owner");
  }

  private static MethodHandle link(String name, MethodType type, int kind) {
    return StateCalls.link(MethodHandles.lookup(), name, type, OWNER, kind).dynamicInvoker();
  }
}
