package dev.whyslow.daemon.demo;

import java.lang.reflect.InvocationTargetException;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * Runs a demo child's main class and exits when whyslowd is gone, so a daemon killed with {@code
 * kill -9} leaves no shop or load generator behind (a normal stop destroys them itself). Usage:
 * {@code ParentWatch PARENT_PID MAIN_CLASS [ARGS...]}.
 */
public final class ParentWatch {
  private ParentWatch() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println("usage: ParentWatch PARENT_PID MAIN_CLASS [ARGS...]");
      System.exit(2);
    }
    long parent = Long.parseLong(args[0]);
    Thread watch = new Thread(() -> exitWhenGone(parent), "whyslow-demo-parent-watch");
    watch.setDaemon(true);
    watch.start();
    try {
      Class.forName(args[1])
          .getMethod("main", String[].class)
          .invoke(null, (Object) Arrays.copyOfRange(args, 2, args.length));
    } catch (InvocationTargetException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
  }

  /** Polls rather than waits on {@code onExit()}: the parent is not this process's child. */
  private static void exitWhenGone(long parent) {
    try {
      while (ProcessHandle.of(parent).map(ProcessHandle::isAlive).orElse(false)) {
        TimeUnit.SECONDS.sleep(1);
      }
    } catch (InterruptedException e) {
      return;
    }
    System.err.println("whyslowd (pid " + parent + ") is gone; demo child exiting");
    System.exit(0);
  }
}
