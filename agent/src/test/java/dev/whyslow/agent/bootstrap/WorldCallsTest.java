package dev.whyslow.agent.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.ref.WeakReference;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * How a copy's call is linked once units are chosen whole: to the callee's copy where the class
 * that runs the call declares one, and to the plain call for everything else, with the plain call's
 * exceptions. The classes below stand for instrumented ones: a method {@code m} with its copy
 * {@code m$whyslow}, which answers differently so the test sees which ran.
 */
@SuppressWarnings("unused") // the copies are found by name
class WorldCallsTest {
  private static final MethodHandles.Lookup CALLER = MethodHandles.lookup();
  private static final MethodType INT_OF_INT = MethodType.methodType(int.class, int.class);

  static final class Statics {
    static int twice(int x) {
      return 2 * x;
    }

    private static int twice$whyslow(int x) {
      return -2 * x;
    }

    static int plain(int x) {
      return x;
    }

    static int fails(int x) {
      throw new IllegalStateException("own " + x);
    }

    private static int fails$whyslow(int x) {
      throw new IllegalStateException("copy " + x);
    }
  }

  static class Base {
    int value() {
      return 1;
    }

    private int value$whyslow() {
      return -1;
    }

    int call() {
      return secret();
    }

    private int secret() {
      return 5;
    }

    private int secret$whyslow() {
      return -5;
    }
  }

  /** In scope, inherits {@code value}: runs the base's copy. */
  static final class Inherits extends Base {}

  /** Out of scope, overrides {@code value} (a framework's proxy): its own method, no copy. */
  static final class Overrides extends Base {
    @Override
    int value() {
      return 3;
    }
  }

  /** Public, so that a class of another loader (a plugin's) may extend it. */
  public static class Extensible {
    public int value() {
      return 1;
    }

    private int value$whyslow() {
      return -1;
    }
  }

  /** Loaded by a loader of its own in the test, as a plugin's class would be. */
  public static final class Extension extends Extensible {}

  interface Shape {
    int sides();

    default int corners() {
      return sides();
    }
  }

  static final class Square implements Shape {
    @Override
    public int sides() {
      return 4;
    }

    private int sides$whyslow() {
      return -4;
    }
  }

  private static MethodHandle linked(String name, MethodType type, int kind, Class<?> owner) {
    return linked(CALLER, name, type, kind, owner);
  }

  private static MethodHandle linked(
      MethodHandles.Lookup caller, String name, MethodType type, int kind, Class<?> owner) {
    return WorldCalls.link(caller, name, type, kind, owner).dynamicInvoker();
  }

  @Test
  void aStaticCallRunsTheCalleesCopyAndOneWithoutACopyTheMethod() throws Throwable {
    assertThat((int) linked("twice", INT_OF_INT, WorldCalls.STATIC, Statics.class).invokeExact(3))
        .isEqualTo(-6);
    assertThat((int) linked("plain", INT_OF_INT, WorldCalls.STATIC, Statics.class).invokeExact(3))
        .isEqualTo(3);
  }

  @Test
  void aVirtualCallChoosesByTheReceiversClass() throws Throwable {
    MethodHandle value =
        linked(
            "value", MethodType.methodType(int.class, Base.class), WorldCalls.VIRTUAL, Base.class);
    assertThat((int) value.invokeExact(new Base())).isEqualTo(-1);
    assertThat((int) value.invokeExact((Base) new Inherits())).as("inherited").isEqualTo(-1);
    assertThat((int) value.invokeExact((Base) new Overrides()))
        .as("an override without a copy keeps its own code")
        .isEqualTo(3);
    assertThat((int) value.invokeExact(new Base())).as("each class remembered apart").isEqualTo(-1);
  }

  @Test
  void anInterfaceCallRunsTheImplementationsCopyAndALambdaItsOwnCode() throws Throwable {
    MethodType type = MethodType.methodType(int.class, Shape.class);
    MethodHandle sides = linked("sides", type, WorldCalls.VIRTUAL, Shape.class);
    assertThat((int) sides.invokeExact((Shape) new Square())).isEqualTo(-4);
    Shape triangle = () -> 3; // a hidden class
    assertThat((int) sides.invokeExact(triangle)).isEqualTo(3);
    MethodHandle corners = linked("corners", type, WorldCalls.VIRTUAL, Shape.class);
    assertThat((int) corners.invokeExact((Shape) new Square()))
        .as("a default method: the plain call")
        .isEqualTo(4);
  }

  @Test
  void aPrivateCallRunsTheCopyOfThatClassNotASubclasses() throws Throwable {
    MethodHandle secret =
        linked(
            MethodHandles.privateLookupIn(Base.class, CALLER), // the class calls its own method
            "secret",
            MethodType.methodType(int.class, Base.class),
            WorldCalls.SPECIAL,
            Base.class);
    assertThat((int) secret.invokeExact((Base) new Inherits())).isEqualTo(-5);
    MethodHandle nestmate =
        linked(
            "secret", MethodType.methodType(int.class, Base.class), WorldCalls.VIRTUAL, Base.class);
    assertThat((int) nestmate.invokeExact((Base) new Overrides())).isEqualTo(-5);
  }

  @Test
  void aNullReceiverThrowsAsThePlainCallDoes() {
    MethodHandle value =
        linked(
            "value", MethodType.methodType(int.class, Base.class), WorldCalls.VIRTUAL, Base.class);
    assertThatThrownBy(() -> value.invoke((Base) null)).isInstanceOf(NullPointerException.class);
  }

  @Test
  void theCopysExceptionReachesTheCallerUnchanged() {
    MethodHandle fails = linked("fails", INT_OF_INT, WorldCalls.STATIC, Statics.class);
    assertThatThrownBy(() -> fails.invoke(7))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("copy 7");
  }

  @Test
  void aMethodThatDoesNotExistFailsWhenCalledAsTheJvmWouldNotAtLinking() {
    MethodHandle missing = linked("absent", INT_OF_INT, WorldCalls.STATIC, Statics.class);
    assertThatThrownBy(() -> missing.invoke(1)).isInstanceOf(NoSuchMethodError.class);
  }

  @Test
  void aReceiverFromAnotherLoaderRunsItsCopyAndTheSiteDoesNotKeepThatLoader() throws Throwable {
    MethodType type = MethodType.methodType(int.class, Extensible.class);
    MethodHandle value = linked("value", type, WorldCalls.VIRTUAL, Extensible.class);
    WeakReference<ClassLoader> plugin = callWithAPluginsReceiver(value);

    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (plugin.get() != null && System.nanoTime() < deadline) {
      System.gc();
    }
    assertThat(plugin.get())
        .as("the plugin's loader, once nothing but the call site saw it")
        .isNull();
    assertThat((int) value.invokeExact(new Extensible())).as("the site still works").isEqualTo(-1);
  }

  /** Calls {@code value} with an {@code Extension} of a loader of its own; returns that loader. */
  private static WeakReference<ClassLoader> callWithAPluginsReceiver(MethodHandle value)
      throws Throwable {
    ClassLoader plugin = new OneClassLoader(Extension.class);
    Class<?> extension = plugin.loadClass(Extension.class.getName());
    assertThat(extension).isNotEqualTo(Extension.class);
    Extensible receiver = (Extensible) extension.getConstructor().newInstance();
    assertThat((int) value.invokeExact(receiver)).as("the copy it inherits").isEqualTo(-1);
    return new WeakReference<>(plugin);
  }

  /** Defines one class itself, from its parent's class file, and delegates every other. */
  private static final class OneClassLoader extends ClassLoader {
    private final String name;

    OneClassLoader(Class<?> defined) {
      super(defined.getClassLoader());
      this.name = defined.getName();
    }

    @Override
    protected Class<?> loadClass(String className, boolean resolve) throws ClassNotFoundException {
      if (!className.equals(name)) {
        return super.loadClass(className, resolve);
      }
      synchronized (getClassLoadingLock(className)) {
        Class<?> c = findLoadedClass(className);
        if (c != null) {
          return c;
        }
        String resource = className.replace('.', '/') + ".class";
        try (InputStream in = getParent().getResourceAsStream(resource)) {
          byte[] bytes = in.readAllBytes();
          return defineClass(className, bytes, 0, bytes.length);
        } catch (IOException e) {
          throw new ClassNotFoundException(className, e);
        }
      }
    }
  }
}
