package dev.whyslow.agent.instrument;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.ClassNode;

/**
 * The classes of one class loader as a caller's transformation sees them: which methods of a class
 * are sampled from their callers ({@link CallerSampled}), worked out from its class file once and
 * remembered, so that a class file is read at most once however many classes call into it.
 */
public final class ClassFiles {
  private final Function<String, byte[]> reader;
  private final Memory memory;

  /**
   * @param reader the class file of a class by internal name, or {@code null} when it is unknown or
   *     out of scope
   * @param memory what is known of the loader's classes, shared by its transformations
   */
  public ClassFiles(Function<String, byte[]> reader, Memory memory) {
    this.reader = reader;
    this.memory = memory;
  }

  /** No class is known: a caller reaches only the copies of its own class's methods. */
  public static ClassFiles none() {
    return new ClassFiles(internalName -> null, new Memory());
  }

  /** The methods of {@code internalName} (name and descriptor) sampled from callers, or none. */
  Set<String> callerSampledOf(String internalName) {
    Set<String> known = memory.get(internalName);
    if (known != null) {
      return known;
    }
    Set<String> methods = callerSampledIn(reader.apply(internalName));
    memory.put(internalName, methods);
    return methods;
  }

  /** Remembers the methods sampled from callers of a class being transformed, for its callers. */
  void remember(String internalName, Set<String> callerSampled) {
    memory.put(internalName, callerSampled);
  }

  private static Set<String> callerSampledIn(byte[] classFile) {
    if (classFile == null) {
      return Set.of();
    }
    try {
      ClassNode node = new ClassNode();
      new ClassReader(classFile).accept(node, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
      return CallerSampled.of(node);
    } catch (RuntimeException unreadable) {
      return Set.of();
    }
  }

  /**
   * What is known of one loader's classes, bounded: past {@link #MAX_CLASSES} it starts again, so
   * that it never holds more than a few megabytes. It holds names only, no class or loader.
   */
  public static final class Memory {
    static final int MAX_CLASSES = 8192;

    private final Map<String, Set<String>> methods = new HashMap<>();

    synchronized Set<String> get(String internalName) {
      return methods.get(internalName);
    }

    synchronized void put(String internalName, Set<String> callerSampled) {
      if (methods.size() >= MAX_CLASSES) {
        methods.clear();
      }
      methods.put(internalName, callerSampled);
    }
  }
}
