package dev.whyslow.agent.instrument;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.ClassNode;

/**
 * The classes one class loader has, as a caller's transformation sees them ({@link StatePassing}):
 * which methods of a class get a variant taking the thread state, worked out from its class file
 * once and remembered, so that a class file is read at most once however many classes call it.
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

  /** No class is known: a caller passes its state only to the methods of its own class. */
  public static ClassFiles none() {
    return new ClassFiles(internalName -> null, new Memory());
  }

  /** The methods of {@code internalName} (name and descriptor) that get a variant, or none. */
  Set<String> variantsOf(String internalName) {
    Set<String> known = memory.get(internalName);
    if (known != null) {
      return known;
    }
    Set<String> variants = variantsIn(reader.apply(internalName));
    memory.put(internalName, variants);
    return variants;
  }

  /** Remembers the variants of a class being transformed, for its callers to come. */
  void remember(String internalName, Set<String> variants) {
    memory.put(internalName, variants);
  }

  private static Set<String> variantsIn(byte[] classFile) {
    if (classFile == null) {
      return Set.of();
    }
    try {
      ClassNode node = new ClassNode();
      new ClassReader(classFile).accept(node, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
      return StateVariants.of(node);
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

    private final Map<String, Set<String>> variants = new HashMap<>();

    synchronized Set<String> get(String internalName) {
      return variants.get(internalName);
    }

    synchronized void put(String internalName, Set<String> methods) {
      if (variants.size() >= MAX_CLASSES) {
        variants.clear();
      }
      variants.put(internalName, methods);
    }
  }
}
