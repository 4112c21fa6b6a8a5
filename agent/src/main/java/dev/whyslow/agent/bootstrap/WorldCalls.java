package dev.whyslow.agent.bootstrap;

import java.lang.invoke.CallSite;
import java.lang.invoke.ConstantCallSite;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandleInfo;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Modifier;

/**
 * The bootstrap of the calls in the copies with probes once units are chosen whole ({@code
 * units.choice=unit}): a call from a copy goes to the callee's copy, so a chosen unit runs copies
 * all the way down while every other unit runs the code javac wrote, with no choice at any entry.
 *
 * <p>A static call, or a call of a private method of the caller's class, links once: to the
 * callee's copy ({@code name$whyslow}) when its class declares one, else to the method itself. A
 * virtual or interface call chooses by the receiver's class, once per class and call site: the
 * method that class runs for the call, and that method's copy only if its declaring class declares
 * one. Anything this cannot prove the same as the plain call (a class out of scope, which has no
 * copy, such as a framework's proxy; a default method; a hidden class; a package-private method
 * seen from another package; any exception while looking) gets the plain call, so a framework's
 * interception and the language's dispatch rules hold exactly as without the agent.
 */
public final class WorldCalls {
  /** {@code invokestatic}. */
  public static final int STATIC = 0;

  /** {@code invokespecial} of a private method of the caller's own class. */
  public static final int SPECIAL = 1;

  /** {@code invokevirtual} or {@code invokeinterface}. */
  public static final int VIRTUAL = 2;

  /** The suffix of a method's copy with probes ({@code MethodCopies.SUFFIX}). */
  static final String COPY = "$whyslow";

  private static final MethodHandle SELECT;

  static {
    try {
      SELECT =
          MethodHandles.lookup()
              .findStatic(
                  WorldCalls.class,
                  "select",
                  MethodType.methodType(MethodHandle.class, ByReceiver.class, Object.class));
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private WorldCalls() {}

  /**
   * Links a call from a copy. {@code type} is the call's type, with the receiver first for {@link
   * #SPECIAL} and {@link #VIRTUAL}; {@code owner} the class the call names.
   */
  public static CallSite link(
      MethodHandles.Lookup caller, String name, MethodType type, int kind, Class<?> owner) {
    // The linking runs code of its own, maybe instrumented (java.* in scope): out of the world.
    ThreadState s = ThreadStates.current();
    int world = s.world;
    s.world = Probes.OWN;
    try {
      return linked(caller, name, type, kind, owner);
    } finally {
      s.world = world;
    }
  }

  private static CallSite linked(
      MethodHandles.Lookup caller, String name, MethodType type, int kind, Class<?> owner) {
    MethodHandle plain;
    try {
      plain = plain(caller, name, type, kind, owner);
    } catch (ReflectiveOperationException e) {
      // The plain call would not link either: it fails as the JVM's own linking would.
      return new ConstantCallSite(failing(type, asLinkageError(e)));
    }
    if (kind == VIRTUAL && isPrivate(caller, plain)) {
      // A nestmate's private method: no dispatch on the receiver, as for invokespecial.
      MethodHandle copy = null;
      try {
        copy = privateCopy(MethodHandles.privateLookupIn(owner, caller), name, type, owner);
      } catch (IllegalAccessException | RuntimeException e) {
        // not one we may look into: the plain call
      }
      return new ConstantCallSite(copy != null ? copy : plain);
    }
    if (kind == VIRTUAL) {
      ByReceiver byClass = new ByReceiver(caller, name, type, plain);
      MethodHandle select = SELECT.bindTo(byClass).asType(selectType(type));
      return new VirtualCallSite(type, byClass, select, caller.lookupClass().getClassLoader());
    }
    MethodHandle copy =
        kind == STATIC
            ? staticCopy(caller, name, type, owner)
            : privateCopy(caller, name, type, owner);
    return new ConstantCallSite(copy != null ? copy : plain);
  }

  private static boolean isPrivate(MethodHandles.Lookup caller, MethodHandle plain) {
    try {
      return Modifier.isPrivate(caller.revealDirect(plain).getModifiers());
    } catch (RuntimeException e) {
      return false; // not a direct handle (asType adapted it): not a private method
    }
  }

  private static MethodHandle plain(
      MethodHandles.Lookup caller, String name, MethodType type, int kind, Class<?> owner)
      throws ReflectiveOperationException {
    MethodType own = kind == STATIC ? type : type.dropParameterTypes(0, 1);
    MethodHandle h =
        switch (kind) {
          case STATIC -> caller.findStatic(owner, name, own);
          case SPECIAL -> caller.findSpecial(owner, name, own, caller.lookupClass());
          default -> caller.findVirtual(owner, name, own);
        };
    // A protected method's handle takes the caller's class as its receiver: the site's type.
    return h.asType(type);
  }

  private static MethodHandle staticCopy(
      MethodHandles.Lookup caller, String name, MethodType type, Class<?> owner) {
    try {
      MethodHandles.Lookup inOwner = MethodHandles.privateLookupIn(owner, caller);
      return declaredBy(owner, inOwner, inOwner.findStatic(owner, name + COPY, type));
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null; // no copy, or not one we may call: the plain call
    }
  }

  private static MethodHandle privateCopy(
      MethodHandles.Lookup caller, String name, MethodType type, Class<?> owner) {
    try {
      MethodHandle copy =
          caller.findSpecial(
              owner, name + COPY, type.dropParameterTypes(0, 1), caller.lookupClass());
      return declaredBy(owner, caller, copy).asType(type);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  /**
   * {@code copy} if {@code owner} itself declares it: the lookups search superclasses too, and a
   * nestmate may reach a superclass's private copy, which is not the copy of this class's method.
   */
  private static MethodHandle declaredBy(
      Class<?> owner, MethodHandles.Lookup lookup, MethodHandle copy) throws NoSuchMethodException {
    if (lookup.revealDirect(copy).getDeclaringClass() != owner) {
      throw new NoSuchMethodException(owner.getName() + " declares no copy of its own");
    }
    return copy;
  }

  private static MethodType selectType(MethodType type) {
    return MethodType.methodType(MethodHandle.class, type.parameterType(0));
  }

  /** The handle a receiver of this class runs; a {@code NullPointerException} for none. */
  private static MethodHandle select(ByReceiver site, Object receiver) {
    return site.get(receiver.getClass());
  }

  /**
   * The target of one virtual call site per receiver class, each of the site's exact type: the copy
   * of the method that class runs, or the plain call.
   */
  private static final class ByReceiver extends ClassValue<MethodHandle> {
    private final MethodHandles.Lookup caller;
    private final String name;
    private final MethodType type;
    private final MethodHandle plain;

    ByReceiver(MethodHandles.Lookup caller, String name, MethodType type, MethodHandle plain) {
      this.caller = caller;
      this.name = name;
      this.type = type;
      this.plain = plain;
    }

    @Override
    protected MethodHandle computeValue(Class<?> receiver) {
      ThreadState s = ThreadStates.current();
      int world = s.world;
      s.world = Probes.OWN;
      try {
        MethodHandle copy = copyFor(receiver);
        return copy != null ? copy : plain;
      } catch (Throwable t) {
        return plain;
      } finally {
        s.world = world;
      }
    }

    private MethodHandle copyFor(Class<?> receiver) throws ReflectiveOperationException {
      if (receiver.isHidden() || receiver.isInterface()) {
        return null;
      }
      MethodType own = type.dropParameterTypes(0, 1);
      MethodHandles.Lookup inReceiver = MethodHandles.privateLookupIn(receiver, caller);
      MethodHandleInfo runs = inReceiver.revealDirect(inReceiver.findVirtual(receiver, name, own));
      Class<?> declaring = runs.getDeclaringClass();
      int modifiers = runs.getModifiers();
      if (declaring.isInterface()
          || Modifier.isAbstract(modifiers)
          || (packagePrivate(modifiers) && !samePackage(declaring, receiver))) {
        return null;
      }
      MethodHandles.Lookup inDeclaring = MethodHandles.privateLookupIn(declaring, caller);
      MethodHandle copy = inDeclaring.findSpecial(declaring, name + COPY, own, declaring);
      return declaredBy(declaring, inDeclaring, copy).asType(type);
    }

    private static boolean packagePrivate(int modifiers) {
      return (modifiers & (Modifier.PUBLIC | Modifier.PROTECTED | Modifier.PRIVATE)) == 0;
    }

    private static boolean samePackage(Class<?> a, Class<?> b) {
      return a.getClassLoader() == b.getClassLoader()
          && a.getPackageName().equals(b.getPackageName());
    }
  }

  private static LinkageError asLinkageError(ReflectiveOperationException e) {
    LinkageError error =
        e instanceof NoSuchMethodException
            ? new NoSuchMethodError(e.getMessage())
            : e instanceof IllegalAccessException
                ? new IllegalAccessError(e.getMessage())
                : new LinkageError(e.getMessage());
    error.initCause(e);
    return error;
  }

  private static MethodHandle failing(MethodType type, Throwable error) {
    MethodHandle thrower =
        MethodHandles.throwException(type.returnType(), Throwable.class).bindTo(error);
    return MethodHandles.dropArguments(thrower, 0, type.parameterList());
  }
}
