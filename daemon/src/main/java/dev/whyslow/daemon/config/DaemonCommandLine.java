package dev.whyslow.daemon.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * whyslowd's command line: {@code [--config file] [--key=value ...] [--demo] [--help]}. Values on
 * the command line win over the file, which wins over the defaults.
 */
public record DaemonCommandLine(DaemonConfig config, boolean demo, boolean help) {

  public static final String USAGE =
      String.join(
          "\n",
          "usage: whyslowd [--config FILE] [--KEY=VALUE ...] [--demo]",
          "  --config FILE   read settings from a properties file (see config/whyslowd.properties)",
          "  --KEY=VALUE     override one setting, e.g. --http.bind=0.0.0.0:9721",
          "  --demo          also start the demo workload against this daemon",
          "  --help          print this help",
          "keys: " + ConfigKey.known());

  public static DaemonCommandLine parse(List<String> args) {
    Map<String, DaemonConfig.Setting> settings = new LinkedHashMap<>();
    Map<String, DaemonConfig.Setting> overrides = new LinkedHashMap<>();
    boolean demo = false;
    boolean help = false;
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (arg.equals("--help") || arg.equals("-h")) {
        help = true;
      } else if (arg.equals("--demo")) {
        demo = true;
      } else if (arg.equals("--config") || arg.startsWith("--config=")) {
        String file;
        if (arg.equals("--config")) {
          if (i + 1 >= args.size()) {
            throw new ConfigException("--config needs a file name: --config whyslowd.properties");
          }
          file = args.get(++i);
        } else {
          file = arg.substring("--config=".length());
        }
        settings.putAll(readFile(Path.of(file)));
      } else if (arg.startsWith("--") && arg.indexOf('=') > 2) {
        int eq = arg.indexOf('=');
        overrides.put(
            arg.substring(2, eq),
            new DaemonConfig.Setting(arg.substring(eq + 1), "--" + arg.substring(2, eq)));
      } else {
        throw new ConfigException(
            "unexpected argument '" + arg + "'; settings are given as --key=value\n" + USAGE);
      }
    }
    settings.putAll(overrides);
    return new DaemonCommandLine(DaemonConfig.fromSettings(settings), demo, help);
  }

  static Map<String, DaemonConfig.Setting> readFile(Path file) {
    Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      properties.load(reader);
    } catch (NoSuchFileException e) {
      throw new ConfigException(
          "configuration file " + file + " does not exist; check the path given to --config");
    } catch (IOException | IllegalArgumentException e) {
      throw new ConfigException("cannot read configuration file " + file + ": " + e.getMessage());
    }
    Map<String, DaemonConfig.Setting> settings = new LinkedHashMap<>();
    for (String name : properties.stringPropertyNames()) {
      settings.put(name, new DaemonConfig.Setting(properties.getProperty(name), file.toString()));
    }
    return settings;
  }
}
