package dev.whyslow.agent;

import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;
import org.objectweb.asm.ClassReader;

/**
 * The probe classes, which instrumented code in every class loader calls, defined in the bootstrap
 * class loader. They are defined there directly, not by appending a jar to the boot class path:
 * with an appended jar the JVM warns at every start that it shares only boot loader classes from
 * its CDS archives ("Sharing is only supported for boot loader classes because bootstrap classpath
 * has been appended"), and on JDK 25 it loaded an application class from its jar rather than from
 * the service's AppCDS archive (bench/README.md). The definer that calls the JDK's internal {@code
 * Unsafe.defineClass} lives in {@code jdk.unsupported} where that module is present, and otherwise
 * in a loader of its own that {@code java.base} must first export the method's package to. Where
 * both fail (a JDK without that internal method), the jar is appended as before.
 */
final class BootstrapClasses {
  /** The resource in the agent jar that holds the probe classes. */
  static final String JAR = "whyslow-bootstrap.jar";

  /** A probe class, to tell whether the bootstrap loader has them already. */
  private static final String PROBES = "dev.whyslow.agent.bootstrap.Probes";

  /** What {@link #install} says when it defined the classes, as it normally does. */
  static final String DEFINED = "defined";

  private BootstrapClasses() {}

  /**
   * Makes the probe classes visible from the bootstrap class loader.
   *
   * @return how: {@code "defined"}, {@code "present"} (an earlier attach of the agent, or the boot
   *     class path, has them) or, after the direct way failed, {@code "appended"} with its cause
   */
  static String install(Instrumentation instrumentation) throws Exception {
    return install(instrumentation, true);
  }

  /**
   * As {@link #install(Instrumentation)}; {@code viaJdkUnsupported} false skips the way that needs
   * no {@code Instrumentation}, so that a test can take the others without defining the probe
   * classes in its own JVM's bootstrap loader.
   */
  static String install(Instrumentation instrumentation, boolean viaJdkUnsupported)
      throws Exception {
    if (presentInBootLoader()) {
      return "present";
    }
    Map<String, byte[]> classes;
    try (InputStream jar = BootstrapJar.open()) {
      classes = read(jar);
    }
    try {
      defineInBootLoader(instrumentation, classes, viaJdkUnsupported);
      return DEFINED;
    } catch (Exception | LinkageError e) {
      // Classes defined before the failure stay; the jar holds the same bytes for the rest.
      BootstrapJar.append(instrumentation);
      return "appended (defining them in the bootstrap loader failed: " + e + ")";
    }
  }

  private static boolean presentInBootLoader() {
    try {
      Class.forName(PROBES, false, null);
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }

  /** The probe classes by binary name, read from the bootstrap jar's bytes. */
  static Map<String, byte[]> read(InputStream bootstrapJar) throws IOException {
    Map<String, byte[]> classes = new LinkedHashMap<>();
    try (JarInputStream jar = new JarInputStream(bootstrapJar)) {
      for (JarEntry e = jar.getNextJarEntry(); e != null; e = jar.getNextJarEntry()) {
        String path = e.getName();
        if (path.endsWith(".class") && !path.endsWith("package-info.class")) {
          String name = path.substring(0, path.length() - ".class".length()).replace('/', '.');
          classes.put(name, jar.readAllBytes());
        }
      }
    }
    if (!classes.containsKey(PROBES)) {
      throw new IllegalStateException(JAR + " in the agent jar holds no probe classes");
    }
    return classes;
  }

  /**
   * {@code classes} in an order the bootstrap loader can define them in: each after the superclass
   * and interfaces it has among them, since defining a class resolves those at once.
   */
  static List<String> definitionOrder(Map<String, byte[]> classes) {
    List<String> order = new ArrayList<>();
    for (String name : classes.keySet()) {
      addAfterSupertypes(name, classes, order, new ArrayList<>());
    }
    return order;
  }

  private static void addAfterSupertypes(
      String name, Map<String, byte[]> classes, List<String> order, List<String> path) {
    if (order.contains(name) || !classes.containsKey(name)) {
      return;
    }
    if (path.contains(name)) {
      throw new IllegalStateException("circular supertypes among the probe classes: " + path);
    }
    path.add(name);
    ClassReader reader = new ClassReader(classes.get(name));
    if (reader.getSuperName() != null) {
      addAfterSupertypes(reader.getSuperName().replace('/', '.'), classes, order, path);
    }
    for (String type : reader.getInterfaces()) {
      addAfterSupertypes(type.replace('/', '.'), classes, order, path);
    }
    path.remove(path.size() - 1);
    order.add(name);
  }

  private static void defineInBootLoader(
      Instrumentation instrumentation, Map<String, byte[]> classes, boolean viaJdkUnsupported)
      throws Exception {
    BiConsumer<String, byte[]> definer = null;
    if (viaJdkUnsupported) {
      try {
        definer = definerInJdkUnsupported();
      } catch (Exception | LinkageError e) {
        // A runtime that refuses this way may still take the export below.
      }
    }
    if (definer == null) {
      definer = definerInALoaderOfItsOwn(instrumentation);
    }
    for (String name : definitionOrder(classes)) {
      definer.accept(name, classes.get(name));
    }
  }

  /**
   * The definer in {@code jdk.unsupported}, which opens {@code sun.misc} to every module and which
   * {@code java.base} exports {@code jdk.internal.misc} to; {@code null} where the runtime lacks
   * that module. No module is changed this way. Exporting a package of {@code java.base} with
   * {@code Instrumentation.redefineModule}, as the other way must, cost a JDK 25 word count 3 to 4
   * % in steady state when the agent was attached with {@code -javaagent} (bench/README.md, "The
   * agent's own append(char)").
   */
  @SuppressWarnings("unchecked")
  static BiConsumer<String, byte[]> definerInJdkUnsupported() throws Exception {
    Class<?> openClass;
    try {
      openClass = Class.forName("sun.misc.Unsafe", false, null);
    } catch (ClassNotFoundException e) {
      return null;
    }
    MethodHandles.Lookup inSunMisc =
        MethodHandles.privateLookupIn(openClass, MethodHandles.lookup());
    Class<?> definerClass = inSunMisc.defineClass(BootLoaderDefiner.classFileInJdkUnsupported());
    MethodHandle constructor =
        inSunMisc.findConstructor(definerClass, MethodType.methodType(void.class));
    try {
      return (BiConsumer<String, byte[]>) constructor.invoke();
    } catch (Exception | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException("the boot loader definer could not be created", t);
    }
  }

  private static BiConsumer<String, byte[]> definerInALoaderOfItsOwn(
      Instrumentation instrumentation) throws Exception {
    DefinerLoader loader = new DefinerLoader();
    Class<?> definerClass = loader.defineDefiner();
    instrumentation.redefineModule(
        Object.class.getModule(),
        Set.of(),
        Map.of("jdk.internal.misc", Set.of(definerClass.getModule())),
        Map.of(),
        Set.of(),
        Map.of());
    // Initializing the class hands its instance to the loader.
    Class.forName(definerClass.getName(), true, loader);
    return loader.definer();
  }

  /**
   * A class loader holding only the generated {@link BootLoaderDefiner}; everything else it
   * delegates to the platform loader, so the definer can reach nothing of the agent's and nothing
   * of the service's. It is the {@code Consumer} that the definer's static initializer hands its
   * instance to.
   */
  private static final class DefinerLoader extends ClassLoader
      implements Consumer<BiConsumer<String, byte[]>> {
    private BiConsumer<String, byte[]> definer;

    DefinerLoader() {
      super("whyslow-boot-definer", ClassLoader.getPlatformClassLoader());
    }

    Class<?> defineDefiner() {
      byte[] b = BootLoaderDefiner.classFile();
      return defineClass(BootLoaderDefiner.NAME, b, 0, b.length);
    }

    @Override
    public void accept(BiConsumer<String, byte[]> definer) {
      this.definer = definer;
    }

    BiConsumer<String, byte[]> definer() {
      if (definer == null) {
        throw new IllegalStateException("the boot loader definer did not hand over an instance");
      }
      return definer;
    }
  }
}
