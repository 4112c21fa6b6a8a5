package dev.whyslow.agent.bootstrap;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.MutableCallSite;

/**
 * A virtual or interface call in a copy ({@link WorldCalls}): an inline cache of the first two
 * receiver classes it meets, each a test of the receiver's class in front of that class's handle,
 * and past them the choice by class of every call ({@code ByReceiver}). The JIT inlines a cached
 * class's handle as it would the call it replaces; through the choice by class alone, every call of
 * a chosen unit's copies was an indirect call, which the JIT neither inlines nor profiles.
 *
 * <p>The cache holds its classes strongly, for as long as the caller's class lives; so it only
 * takes a class of the caller's own loader or one of that loader's ancestors, which live at least
 * as long anyway. A receiver from any other loader (a plugin's, a redeployed application's) turns
 * the site to the choice by class at once, which holds nothing that keeps that loader from being
 * unloaded.
 */
final class VirtualCallSite extends MutableCallSite {
  /** As many receiver classes as C2 inlines at a call site it profiles. */
  static final int CACHED_CLASSES = 2;

  private static final MethodHandle RELINK;
  private static final MethodHandle IS_CLASS;

  static {
    try {
      MethodHandles.Lookup l = MethodHandles.lookup();
      RELINK =
          l.findVirtual(
              VirtualCallSite.class,
              "relink",
              MethodType.methodType(MethodHandle.class, Object.class));
      IS_CLASS =
          l.findStatic(
              VirtualCallSite.class,
              "isClass",
              MethodType.methodType(boolean.class, Class.class, Object.class));
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final ClassValue<MethodHandle> byClass;
  private final MethodHandle megamorphic;
  private final ClassLoader callerLoader;
  private int classes;

  /**
   * @param byClass each receiver class's handle, of exactly {@code type}
   * @param select {@code byClass}'s handle for the receiver, of type {@code (receiver)MethodHandle}
   * @param callerLoader the loader of the class whose copy makes the call
   */
  VirtualCallSite(
      MethodType type,
      ClassValue<MethodHandle> byClass,
      MethodHandle select,
      ClassLoader callerLoader) {
    super(type);
    this.byClass = byClass;
    this.callerLoader = callerLoader;
    MethodHandle invoker = MethodHandles.exactInvoker(type);
    this.megamorphic = MethodHandles.foldArguments(invoker, select);
    MethodHandle relink = RELINK.bindTo(this).asType(select.type());
    setTarget(MethodHandles.foldArguments(invoker, relink));
  }

  /**
   * A receiver of a class the cache does not hold yet: its handle, which this call runs, and the
   * cache holds the class from now on; the third class, or one the cache may not hold, turns the
   * site to the choice by class.
   */
  @SuppressWarnings("unused") // through RELINK
  private MethodHandle relink(Object receiver) {
    Class<?> c = receiver.getClass(); // a null receiver: the NullPointerException of the call
    MethodHandle handle = byClass.get(c);
    synchronized (this) {
      if (classes <= CACHED_CLASSES && !outlivesTheCaller(c.getClassLoader())) {
        setTarget(megamorphic);
        classes = CACHED_CLASSES + 1;
      } else if (classes < CACHED_CLASSES) {
        MethodType testType = MethodType.methodType(boolean.class, type().parameterType(0));
        MethodHandle test = IS_CLASS.bindTo(c).asType(testType);
        setTarget(MethodHandles.guardWithTest(test, handle, getTarget()));
        classes++;
      } else if (classes == CACHED_CLASSES) {
        setTarget(megamorphic);
        classes++;
      }
    }
    return handle;
  }

  /** Whether {@code loader} is the caller's loader or one it delegates to (null: bootstrap). */
  private boolean outlivesTheCaller(ClassLoader loader) {
    for (ClassLoader l = callerLoader; l != null; l = l.getParent()) {
      if (l == loader) {
        return true;
      }
    }
    return loader == null;
  }

  @SuppressWarnings("unused") // through IS_CLASS
  private static boolean isClass(Class<?> c, Object receiver) {
    return receiver != null && receiver.getClass() == c;
  }
}
