package dev.whyslow.daemon.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The parsed command line: global options ({@code --server}, {@code --token}, {@code --json}), the
 * command, its positional arguments and its {@code --name value} options. Options may come before
 * or after the command.
 */
record CliArgs(
    String server,
    Optional<String> token,
    boolean json,
    String command,
    List<String> positional,
    Map<String, String> options) {

  static final String DEFAULT_SERVER = "http://127.0.0.1:9721";

  static final String USAGE =
      String.join(
          "\n",
          "usage: whyslow [--server URL] [--token TOKEN] [--json] COMMAND [ARGS]",
          "commands:",
          "  services                          services with instances, versions, sites, runs",
          "  sites SERVICE                     probe sites of a service",
          "  runs [--service S] [--from T] [--to T] [--label L] [--limit N]",
          "       [--instance I] [--version V] runs, oldest first",
          "  run ID                            one run with its per-site counts",
          "  label success|failure|do-not-care (--runs ID,ID | --service S [--from T] [--to T]",
          "       [--instance I] [--version V])",
          "  diagnose SERVICE [--from T] [--to T] [--model cbi|delta-lda] [--predicates P]",
          "       [--top N] [--instance I] [--version V] [--unit-type U]",
          "                                    the predicates that explain the failing runs",
          "  agents                            connected agents and their statistics",
          "  units SERVICE [--from T] [--to T] unit types: units, mean, p99, violations, threshold",
          "  thresholds SERVICE                current thresholds and how they are computed",
          "  violations SERVICE [--unit-type U] [--from T] [--to T] [--limit N]",
          "                                    threshold violations, newest first",
          "  violation ID                      one violation with its stack",
          "  sampling-rate SERVICE RATE        e.g. sampling-rate checkout 0.001",
          "  kill-switch SERVICE on|off        on turns every probe of the service off",
          "times T are epoch milliseconds or ISO-8601 instants (2024-06-10T06:13:20Z)",
          "--server defaults to $WHYSLOW_SERVER or " + DEFAULT_SERVER,
          "--token (for label, sampling-rate, kill-switch) defaults to $WHYSLOW_TOKEN");

  /** Options that take a value; anything else starting with {@code --} is unknown. */
  private static final Set<String> VALUED =
      Set.of(
          "server",
          "token",
          "service",
          "from",
          "to",
          "label",
          "limit",
          "instance",
          "version",
          "runs",
          "unit-type",
          "model",
          "predicates",
          "top");

  static CliArgs parse(List<String> args, Map<String, String> env) {
    String server = env.getOrDefault("WHYSLOW_SERVER", DEFAULT_SERVER);
    Optional<String> token =
        Optional.ofNullable(env.get("WHYSLOW_TOKEN")).filter(t -> !t.isEmpty());
    boolean json = false;
    String command = null;
    List<String> positional = new ArrayList<>();
    Map<String, String> options = new HashMap<>();
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (arg.equals("--json")) {
        json = true;
      } else if (arg.equals("--help") || arg.equals("-h")) {
        command = "help";
      } else if (arg.startsWith("--")) {
        String name = arg.substring(2);
        String value = null;
        int eq = name.indexOf('=');
        if (eq >= 0) {
          value = name.substring(eq + 1);
          name = name.substring(0, eq);
        }
        if (!VALUED.contains(name)) {
          throw new UsageException("unknown option --" + name);
        }
        if (value == null) {
          if (i + 1 >= args.size()) {
            throw new UsageException("--" + name + " needs a value");
          }
          value = args.get(++i);
        }
        switch (name) {
          case "server" -> server = value;
          case "token" -> token = Optional.of(value);
          default -> options.put(name, value);
        }
      } else if (command == null) {
        command = arg;
      } else {
        positional.add(arg);
      }
    }
    if (command == null) {
      throw new UsageException("no command given");
    }
    return new CliArgs(stripSlash(server), token, json, command, positional, options);
  }

  private static String stripSlash(String server) {
    return server.endsWith("/") ? server.substring(0, server.length() - 1) : server;
  }

  /** The positional arguments must be exactly {@code names}; returns them in order. */
  List<String> expect(String... names) {
    if (positional.size() != names.length) {
      throw new UsageException(
          command
              + " takes "
              + (names.length == 0 ? "no arguments" : String.join(" ", names))
              + (positional.isEmpty() ? "" : ", got: " + String.join(" ", positional)));
    }
    return positional;
  }

  /** Refuses options the command does not take. */
  void allowOptions(String... names) {
    Set<String> allowed = Set.of(names);
    for (String name : options.keySet()) {
      if (!allowed.contains(name)) {
        throw new UsageException(command + " does not take --" + name);
      }
    }
  }

  Optional<String> option(String name) {
    return Optional.ofNullable(options.get(name));
  }
}
