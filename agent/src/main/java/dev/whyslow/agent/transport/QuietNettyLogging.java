package dev.whyslow.agent.transport;

import io.netty.util.internal.logging.InternalLogLevel;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * Keeps the agent's relocated Netty from initialising the application's logging. Left alone, Netty
 * looks for SLF4J or Log4j on the class path, or starts {@code java.util.logging}, early in the
 * service's start-up, which can break how the application configures its own logging. This factory
 * drops Netty's debug and info output and prints each distinct warning once through {@link
 * OnceLog}.
 */
final class QuietNettyLogging extends InternalLoggerFactory {
  private static final String SHADED_PREFIX = "dev.whyslow.agent.shaded.";

  private final OnceLog log;

  QuietNettyLogging(OnceLog log) {
    this.log = log;
  }

  /**
   * Installs the quiet factory when Netty is the agent's relocated copy. Unrelocated (tests,
   * benches on the plain module jar) Netty may be shared with the application, so it is left alone.
   */
  static void installIfRelocated(OnceLog log) {
    if (InternalLoggerFactory.class.getName().startsWith(SHADED_PREFIX)) {
      InternalLoggerFactory.setDefaultFactory(new QuietNettyLogging(log));
    }
  }

  @Override
  protected InternalLogger newInstance(String name) {
    return (InternalLogger)
        Proxy.newProxyInstance(
            InternalLogger.class.getClassLoader(),
            new Class<?>[] {InternalLogger.class},
            new Handler(name, log));
  }

  private static final class Handler implements InvocationHandler {
    private final String name;
    private final OnceLog log;

    Handler(String name, OnceLog log) {
      this.name = name;
      this.log = log;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) {
      String m = method.getName();
      Object[] a = args == null ? new Object[0] : args;
      switch (m) {
        case "name":
        case "toString":
          return name;
        case "hashCode":
          return System.identityHashCode(proxy);
        case "equals":
          return proxy == a[0];
        case "isWarnEnabled":
        case "isErrorEnabled":
          return true;
        case "warn":
        case "error":
          print(a);
          break;
        case "isEnabled":
          return isLoud((InternalLogLevel) a[0]);
        case "log":
          if (isLoud((InternalLogLevel) a[0]) && a.length > 1) {
            Object[] rest = new Object[a.length - 1];
            System.arraycopy(a, 1, rest, 0, rest.length);
            print(rest);
          }
          break;
        default:
          break;
      }
      return method.getReturnType() == boolean.class ? Boolean.FALSE : null;
    }

    private static boolean isLoud(InternalLogLevel level) {
      return level == InternalLogLevel.WARN || level == InternalLogLevel.ERROR;
    }

    private void print(Object[] args) {
      if (args.length == 0) {
        return;
      }
      String first = String.valueOf(args[0]);
      // One line per distinct message format, whatever its arguments.
      log.report("netty-" + first, "netty " + name + ": " + first);
    }
  }
}
