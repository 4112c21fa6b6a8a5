package dev.whyslow.daemon.demo;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.ProcessBuilder.Redirect;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The shop demo's thread: starts the shop and its load, waits until the daemon has a threshold for
 * the trained search unit type, then turns the wildcard bug on and off in turn and says when
 * violations arrive. Child output goes to log files; a child that dies unexpectedly gets one line
 * on the console and ends the shop demo.
 */
final class ShopDemo implements Runnable {
  static final double BUG_SHARE = 0.05;

  /**
   * The bug is on for a while and off for longer: were it always on, its slow searches would fill
   * the threshold window and raise the mean-sigma threshold until they no longer violate it.
   */
  static final Duration BUG_ON = Duration.ofMinutes(2);

  static final Duration BUG_OFF = Duration.ofMinutes(3);
  static final Duration HEALTHY_AFTER_THRESHOLD = Duration.ofMinutes(1);
  private static final Pattern LISTENING = Pattern.compile("shop listening on (\\d+)");

  private final ShopDemoCommands commands;
  private final Path logDir;
  private final PrintStream out;
  private final String cli;
  private final Supplier<List<String>> thresholdTypes;
  private final LongPredicate violationsSince;
  private final List<Process> children = new ArrayList<>();
  private volatile boolean stopped;

  ShopDemo(
      ShopDemoCommands commands,
      Path logDir,
      PrintStream out,
      String cli,
      Supplier<List<String>> thresholdTypes,
      LongPredicate violationsSince) {
    this.commands = commands;
    this.logDir = logDir;
    this.out = out;
    this.cli = cli;
    this.thresholdTypes = thresholdTypes;
    this.violationsSince = violationsSince;
  }

  Path shopLog() {
    return logDir.resolve("shop.log");
  }

  Path loadLog() {
    return logDir.resolve("load.log");
  }

  @Override
  public void run() {
    try {
      Process shop = start("shop", commands.shop(), shopLog(), false);
      if (shop == null) {
        return;
      }
      Optional<Integer> port = await(() -> listeningPort(shopLog()), Duration.ofMinutes(2));
      if (port.isEmpty()) {
        fail("the shop did not start listening within 2 minutes; see " + shopLog());
        return;
      }
      startLoad(port.get());
      Optional<String> type = await(() -> searchType(thresholdTypes.get()), Duration.ofMinutes(6));
      // More healthy units, so the bug's slow searches stand out against a settled threshold.
      if (!pause(HEALTHY_AFTER_THRESHOLD)) {
        return;
      }
      out.println(
          "demo: "
              + ShopDemoCommands.SERVICE
              + (type.isPresent()
                  ? " has thresholds for " + thresholdTypes.get()
                  : " has no threshold for its search unit type after 6 minutes"));
      for (boolean first = true; !stopped; first = false) {
        long bugOn = System.currentTimeMillis();
        setBugShare(port.get(), BUG_SHARE);
        out.println(
            "demo: "
                + ShopDemoCommands.SERVICE
                + ": wildcard bug on for "
                + Math.round(BUG_SHARE * 100)
                + "% of searches, for "
                + BUG_ON.toMinutes()
                + " minutes");
        if (first
            && await(() -> Optional.of(bugOn).filter(violationsSince::test), BUG_ON).isPresent()) {
          out.println(
              "demo: "
                  + ShopDemoCommands.SERVICE
                  + " violations arriving:  "
                  + cli
                  + " violations "
                  + ShopDemoCommands.SERVICE
                  + "   and why:  "
                  + cli
                  + " diagnose "
                  + ShopDemoCommands.SERVICE
                  + " --unit-type "
                  + type.map(ShopDemo::shellWord).orElse("TYPE"));
        }
        if (!pause(BUG_ON.minusMillis(System.currentTimeMillis() - bugOn))) {
          return;
        }
        setBugShare(port.get(), 0);
        out.println(
            "demo: "
                + ShopDemoCommands.SERVICE
                + ": wildcard bug off for "
                + BUG_OFF.toMinutes()
                + " minutes");
        if (!pause(BUG_OFF)) {
          return;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      fail(e.getMessage());
    }
  }

  /** Destroys the children, politely first; safe to call more than once. */
  void stop() throws InterruptedException {
    List<Process> running;
    synchronized (children) {
      stopped = true;
      running = List.copyOf(children);
    }
    running.forEach(Process::destroy);
    for (Process process : running) {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }

  private void fail(String message) {
    if (!stopped) {
      out.println("demo: the shop demo stopped: " + message);
    }
    try {
      stop();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Starts a child with its output in {@code log}; null once the demo is stopped. */
  private Process start(String name, List<String> command, Path log, boolean append)
      throws IOException {
    Files.createDirectories(log.getParent());
    Redirect to = append ? Redirect.appendTo(log.toFile()) : Redirect.to(log.toFile());
    Process process;
    synchronized (children) {
      if (stopped) {
        return null;
      }
      process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(to).start();
      children.add(process);
    }
    process
        .onExit()
        .thenAccept(
            p -> {
              synchronized (children) {
                children.remove(p);
              }
              if (stopped) {
                return;
              }
              if (name.equals("load generator") && p.exitValue() == 0) {
                restartLoad(command);
                return;
              }
              fail("the " + name + " JVM exited with code " + p.exitValue() + "; see " + log);
            });
    return process;
  }

  private void startLoad(int port) throws IOException {
    start("load generator", commands.load(port), loadLog(), true);
  }

  /** A load run ended after its duration: start the next one. */
  private void restartLoad(List<String> command) {
    try {
      start("load generator", command, loadLog(), true);
    } catch (IOException e) {
      fail("cannot restart the load generator: " + e.getMessage());
    }
  }

  private void setBugShare(int port, double share) throws IOException, InterruptedException {
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(ShopDemoCommands.bugUrl(port, share)))
            .timeout(Duration.ofSeconds(10))
            .POST(HttpRequest.BodyPublishers.noBody())
            .build();
    HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IOException(
          "the shop refused the bug switch (" + response.statusCode() + "): " + response.body());
    }
  }

  /** Polls {@code probe} each second until it answers, the demo stops or {@code timeout} ends. */
  private <T> Optional<T> await(Supplier<Optional<T>> probe, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!stopped && System.nanoTime() < deadline) {
      Optional<T> answer = probe.get();
      if (answer.isPresent()) {
        return answer;
      }
      TimeUnit.SECONDS.sleep(1);
    }
    return Optional.empty();
  }

  /** Sleeps {@code time} in steps of a second; false when the demo stopped meanwhile. */
  private boolean pause(Duration time) throws InterruptedException {
    await(Optional::empty, time);
    return !stopped;
  }

  /** The port in the shop's {@code shop listening on PORT} line, once it is in the log. */
  static Optional<Integer> listeningPort(Path log) {
    try {
      Matcher m = LISTENING.matcher(Files.readString(log));
      return m.find() ? Optional.of(Integer.parseInt(m.group(1))) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /**
   * The trained unit type of searches (its name has calling context after a {@code /} and mentions
   * search), the one the wildcard bug slows down.
   */
  static Optional<String> searchType(List<String> types) {
    return types.stream()
        .filter(t -> t.contains("/") && t.toLowerCase(Locale.ROOT).contains("search"))
        .findFirst();
  }

  /** {@code word} as one shell word: as is when it is plain, else single-quoted. */
  static String shellWord(String word) {
    return word.matches("[A-Za-z0-9._/#:=,+-]+") ? word : "'" + word.replace("'", "'\\''") + "'";
  }
}
