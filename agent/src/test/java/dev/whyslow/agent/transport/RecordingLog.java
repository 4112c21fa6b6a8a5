package dev.whyslow.agent.transport;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** An {@link OnceLog} whose lines tests can read. */
final class RecordingLog {
  final List<String> lines = new CopyOnWriteArrayList<>();
  final OnceLog log = new OnceLog(lines::add);

  long count(String fragment) {
    return lines.stream().filter(line -> line.contains(fragment)).count();
  }
}
