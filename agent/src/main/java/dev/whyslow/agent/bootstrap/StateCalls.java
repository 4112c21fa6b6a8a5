package dev.whyslow.agent.bootstrap;

import java.lang.invoke.CallSite;
import java.lang.invoke.ConstantCallSite;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Links the calls through which instrumented code passes its thread state to a short method it
 * calls, so that the callee's entry needs no lookup of its own. A short method that cannot be
 * overridden gets a variant taking the state as a last argument, under the same name ({@code
 * StateVariants}); a caller that holds the state calls it through an {@code invokedynamic} whose
 * bootstrap is {@link #link}. The caller is transformed on its own, before or after the callee, so
 * it only guesses that the variant exists: when it does not (the callee's class was loaded before
 * the agent, kept out of scope, or failed to instrument), the call site links to the method itself
 * and drops the state. Either way the call site is constant, and the JIT inlines through it as
 * through a plain call.
 *
 * <p>Linking never throws what the plain call would not have: a callee that cannot be found or
 * accessed links to a method handle that throws the {@link LinkageError} the plain call would have
 * thrown where it was made.
 */
public final class StateCalls {
  /** {@link #link}'s {@code kind} for an {@code invokestatic}. */
  public static final int STATIC = 0;

  /** {@link #link}'s {@code kind} for an {@code invokevirtual}. */
  public static final int VIRTUAL = 1;

  private StateCalls() {}

  /**
   * The bootstrap of a call that passes the state: {@code type} is the plain call's type (with the
   * receiver first for {@link #VIRTUAL}) followed by {@link ThreadState}.
   *
   * @param name the called method's own name
   * @param owner the internal name of the class the plain call named
   * @param kind {@link #STATIC} or {@link #VIRTUAL}
   */
  public static CallSite link(
      MethodHandles.Lookup caller, String name, MethodType type, String owner, int kind) {
    return new ConstantCallSite(target(caller, name, type, owner, kind == VIRTUAL).asType(type));
  }

  private static MethodHandle target(
      MethodHandles.Lookup caller, String name, MethodType type, String owner, boolean virtual) {
    int stateAt = type.parameterCount() - 1;
    MethodType withState = virtual ? type.dropParameterTypes(0, 1) : type;
    int last = withState.parameterCount() - 1;
    MethodType plain = withState.dropParameterTypes(last, last + 1);
    Class<?> ownerClass;
    try {
      ownerClass = caller.findClass(owner.replace('/', '.'));
    } catch (ClassNotFoundException e) {
      return throwing(type, new NoClassDefFoundError(owner));
    } catch (IllegalAccessException e) {
      return throwing(type, new IllegalAccessError(e.getMessage()));
    }
    try {
      return virtual
          ? caller.findVirtual(ownerClass, name, withState)
          : caller.findStatic(ownerClass, name, withState);
    } catch (ReflectiveOperationException | RuntimeException noVariant) {
      // The callee has no variant: the plain call, with the state dropped.
    }
    try {
      MethodHandle own =
          virtual
              ? caller.findVirtual(ownerClass, name, plain)
              : caller.findStatic(ownerClass, name, plain);
      return MethodHandles.dropArguments(own, stateAt, ThreadState.class);
    } catch (NoSuchMethodException e) {
      return throwing(type, new NoSuchMethodError(describe(owner, name, plain)));
    } catch (IllegalAccessException e) {
      return throwing(type, new IllegalAccessError(e.getMessage()));
    }
  }

  /** A method handle of {@code type} that throws {@code error} whenever it is called. */
  private static MethodHandle throwing(MethodType type, LinkageError error) {
    MethodHandle thrower =
        MethodHandles.throwException(type.returnType(), LinkageError.class).bindTo(error);
    return MethodHandles.dropArguments(thrower, 0, type.parameterList());
  }

  private static String describe(String owner, String name, MethodType plain) {
    return new StringBuilder(owner.replace('/', '.'))
        .append('.')
        .append(name)
        .append(plain.toMethodDescriptorString())
        .toString();
  }
}
