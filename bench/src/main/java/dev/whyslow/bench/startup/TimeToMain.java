package dev.whyslow.bench.startup;

import java.lang.management.ManagementFactory;

/**
 * Prints the milliseconds from the JVM's start to this {@code main}: what a service's start-up pays
 * before its own code runs, premain included. The clock is read first, so the management classes
 * loaded to learn the start time are not counted.
 */
public final class TimeToMain {
  private TimeToMain() {}

  public static void main(String[] args) {
    long now = System.currentTimeMillis();
    System.out.println(now - ManagementFactory.getRuntimeMXBean().getStartTime());
  }
}
