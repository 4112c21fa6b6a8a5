package dev.whyslow.agent.core;

import dev.whyslow.agent.bootstrap.RunCounts;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.SiteCounts;
import dev.whyslow.protocol.SiteKeys;
import dev.whyslow.protocol.SiteKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code dump=path} debug output: the final process run and the whole site table as
 * tab-separated text, for people debugging an agent and for tests that need exact counts without a
 * daemon. Format (one record per line, fields separated by a tab):
 *
 * <pre>
 * # whyslow dump 1
 * run  sequence=1  kind=process  label=do-not-care  samplingRate=1.0  startEpochMillis=…  durationNanos=…  sites=12  observedSites=7
 * site key  kind  class  method  descriptor  sourceFile  line  loopId  detail  observed  true0,true1,…
 * </pre>
 *
 * {@code kind} is the {@link SiteKind} name; the true counts follow the kind's predicate order
 * (taken, not taken; {@code <0, <=0, >0, >=0, ==0, !=0}; false, true; null, non-null).
 */
public final class RunDump {
  static final String HEADER = "# whyslow dump 1";

  /** One line of the site table. */
  public record DumpedSite(
      String key,
      SiteKind kind,
      String className,
      String method,
      String descriptor,
      String sourceFile,
      int line,
      int loopId,
      String detail,
      long observed,
      long[] trueCounts) {}

  /** A dump read back: the run line's fields and the site table. */
  public record Contents(Map<String, String> run, List<DumpedSite> sites) {
    /** Sites of {@code method} in {@code className}, in registration order. */
    public List<DumpedSite> sitesOf(String className, String method) {
      List<DumpedSite> out = new ArrayList<>();
      for (DumpedSite s : sites) {
        if (s.className().equals(className) && s.method().equals(method)) {
          out.add(s);
        }
      }
      return out;
    }
  }

  private RunDump() {}

  public static void write(Path path, Run run, List<SiteRegistry.Entry> sites, RunCounts counts)
      throws IOException {
    StringBuilder out = new StringBuilder(HEADER).append('\n');
    out.append("run")
        .append("\tsequence=")
        .append(run.sequence())
        .append("\tkind=")
        .append(run.kind().name().toLowerCase(java.util.Locale.ROOT))
        .append("\tlabel=")
        .append(run.label().spelling())
        .append("\tsamplingRate=")
        .append(run.samplingRate())
        .append("\tstartEpochMillis=")
        .append(run.startEpochMillis())
        .append("\tdurationNanos=")
        .append(run.durationNanos())
        .append("\tsites=")
        .append(sites.size())
        .append("\tobservedSites=")
        .append(run.sites().size())
        .append('\n');
    for (SiteRegistry.Entry entry : sites) {
      SiteCounts c = ProcessRunBuilder.countsOf(entry, counts);
      var s = entry.site();
      out.append("site\t")
          .append(SiteKeys.format(s.key()))
          .append('\t')
          .append(s.kind().name())
          .append('\t')
          .append(s.className())
          .append('\t')
          .append(s.methodName())
          .append('\t')
          .append(s.descriptor())
          .append('\t')
          .append(s.sourceFile())
          .append('\t')
          .append(s.line())
          .append('\t')
          .append(s.loopId())
          .append('\t')
          .append(s.detail())
          .append('\t')
          .append(c.observed())
          .append('\t');
      long[] t = c.trueCounts();
      for (int i = 0; i < t.length; i++) {
        out.append(i == 0 ? "" : ",").append(t[i]);
      }
      out.append('\n');
    }
    Path parent = path.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Files.writeString(path, out, StandardCharsets.UTF_8);
  }

  /**
   * @throws IOException when the file cannot be read or is not a whyslow dump
   */
  public static Contents read(Path path) throws IOException {
    List<String> lines = Files.readAllLines(path, StandardCharsets.UTF_8);
    if (lines.isEmpty() || !lines.get(0).equals(HEADER)) {
      throw new IOException(path + " is not a whyslow dump (first line must be '" + HEADER + "')");
    }
    Map<String, String> run = new LinkedHashMap<>();
    List<DumpedSite> sites = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split("\t", -1);
      if (f[0].equals("run")) {
        for (int i = 1; i < f.length; i++) {
          int eq = f[i].indexOf('=');
          run.put(f[i].substring(0, eq), f[i].substring(eq + 1));
        }
      } else if (f[0].equals("site") && f.length == 12) {
        String[] parts = f[11].split(",");
        long[] trueCounts = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
          trueCounts[i] = Long.parseLong(parts[i]);
        }
        sites.add(
            new DumpedSite(
                f[1],
                SiteKind.valueOf(f[2]),
                f[3],
                f[4],
                f[5],
                f[6],
                Integer.parseInt(f[7]),
                Integer.parseInt(f[8]),
                f[9],
                Long.parseLong(f[10]),
                trueCounts));
      } else if (!line.isBlank()) {
        throw new IOException("unexpected line in " + path + ": " + line);
      }
    }
    return new Contents(run, sites);
  }
}
