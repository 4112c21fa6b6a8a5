package dev.whyslow.daemon;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The daemon's version, from a resource Maven fills in at build time. */
public final class BuildInfo {
  private static final String VERSION = load();

  private BuildInfo() {}

  public static String version() {
    return VERSION;
  }

  private static String load() {
    try (InputStream in = BuildInfo.class.getResourceAsStream("version.properties")) {
      if (in == null) {
        return "unknown";
      }
      Properties p = new Properties();
      p.load(in);
      String v = p.getProperty("version", "unknown");
      return v.startsWith("${") ? "unknown" : v;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
