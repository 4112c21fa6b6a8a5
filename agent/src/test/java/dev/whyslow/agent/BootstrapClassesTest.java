package dev.whyslow.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;

class BootstrapClassesTest {
  @Test
  void aClassIsDefinedAfterItsSuperclassAndInterfacesWhateverOrderTheJarHolds() {
    Map<String, byte[]> classes = new LinkedHashMap<>();
    classes.put("p.Leaf", type("p/Leaf", "p/Middle", "p/Marker"));
    classes.put("p.Middle", type("p/Middle", "p/Base"));
    classes.put("p.Marker", iface("p/Marker"));
    classes.put("p.Base", type("p/Base", "java/lang/Object"));

    List<String> order = BootstrapClasses.definitionOrder(classes);

    assertThat(order).containsExactlyInAnyOrderElementsOf(classes.keySet());
    assertThat(order.indexOf("p.Base")).isLessThan(order.indexOf("p.Middle"));
    assertThat(order.indexOf("p.Middle")).isLessThan(order.indexOf("p.Leaf"));
    assertThat(order.indexOf("p.Marker")).isLessThan(order.indexOf("p.Leaf"));
  }

  @Test
  void supertypesOutsideTheJarAreLeftToTheBootLoader() {
    Map<String, byte[]> classes = new LinkedHashMap<>();
    classes.put("p.Task", type("p/Task", "java/lang/Thread", "java/lang/Runnable"));

    assertThat(BootstrapClasses.definitionOrder(classes)).containsExactly("p.Task");
  }

  @Test
  void circularSupertypesAreRefusedWithTheCycleNamed() {
    Map<String, byte[]> classes = new LinkedHashMap<>();
    classes.put("p.A", type("p/A", "p/B"));
    classes.put("p.B", type("p/B", "p/A"));

    assertThatThrownBy(() -> BootstrapClasses.definitionOrder(classes))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("circular")
        .hasMessageContaining("p.A")
        .hasMessageContaining("p.B");
  }

  @Test
  void theAgentJarsProbeClassesAllComeInAnOrderWithTheRunCountsBeforeItsSubclasses()
      throws Exception {
    Map<String, byte[]> classes;
    // Built in process-classes, before the tests; the agent jar carries it as a resource.
    try (InputStream jar =
        Files.newInputStream(Path.of("target/bootstrap", BootstrapClasses.JAR))) {
      classes = BootstrapClasses.read(jar);
    }

    List<String> order = BootstrapClasses.definitionOrder(classes);

    assertThat(order).containsExactlyInAnyOrderElementsOf(classes.keySet());
    String base = "dev.whyslow.agent.bootstrap.RunCounts";
    for (String subclass :
        List.of(
            "dev.whyslow.agent.bootstrap.UnitRunCounts",
            "dev.whyslow.agent.bootstrap.ChunkedRunCounts")) {
      assertThat(order.indexOf(base)).isLessThan(order.indexOf(subclass));
    }
  }

  @Test
  void whereTheBootLoaderCannotBeReachedTheJarIsAppendedAndTheCauseSaid() throws Exception {
    List<JarFile> appended = new ArrayList<>();
    Instrumentation refusing =
        (Instrumentation)
            Proxy.newProxyInstance(
                getClass().getClassLoader(),
                new Class<?>[] {Instrumentation.class},
                (proxy, method, args) -> {
                  switch (method.getName()) {
                    case "redefineModule":
                      throw new UnsupportedOperationException("no module changes here");
                    case "appendToBootstrapClassLoaderSearch":
                      appended.add((JarFile) args[0]);
                      return null;
                    default:
                      throw new AssertionError("unexpected " + method);
                  }
                });

    String how = BootstrapClasses.install(refusing, false);

    assertThat(how).startsWith("appended").contains("no module changes here");
    assertThat(appended).hasSize(1);
    try (JarFile jar = appended.get(0)) {
      assertThat(jar.getEntry("dev/whyslow/agent/bootstrap/Probes.class")).isNotNull();
      Files.delete(Path.of(jar.getName()));
    }
  }

  @Test
  void theDefinerInJdkUnsupportedPutsAClassInTheBootstrapLoaderWithoutChangingAModule()
      throws Exception {
    // A class of this test's own, so the JVM's bootstrap loader gains nothing another test uses.
    String name = "dev.whyslow.agent.boottest.DefinedByTheTest";
    var definer = BootstrapClasses.definerInJdkUnsupported();
    assertThat(definer).isNotNull();
    assertThat(definer.getClass().getModule().getName()).isEqualTo("jdk.unsupported");
    assertThat(Object.class.getModule().isExported("jdk.internal.misc", getClass().getModule()))
        .isFalse();

    definer.accept(name, type(name.replace('.', '/'), "java/lang/Object"));

    Class<?> defined = Class.forName(name, false, null);
    assertThat(defined.getClassLoader()).isNull();
    assertThat(Object.class.getModule().isExported("jdk.internal.misc", getClass().getModule()))
        .isFalse();
  }

  private static byte[] type(String name, String superName, String... interfaces) {
    ClassWriter writer = new ClassWriter(0);
    writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, name, null, superName, interfaces);
    writer.visitEnd();
    return writer.toByteArray();
  }

  private static byte[] iface(String name) {
    ClassWriter writer = new ClassWriter(0);
    writer.visit(
        Opcodes.V17,
        Opcodes.ACC_PUBLIC | Opcodes.ACC_INTERFACE | Opcodes.ACC_ABSTRACT,
        name,
        null,
        "java/lang/Object",
        null);
    writer.visitEnd();
    return writer.toByteArray();
  }
}
