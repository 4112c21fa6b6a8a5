package dev.whyslow.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarInputStream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;

/** The shaded agent jar carries only relocated classes and a dependency-free bootstrap jar. */
class AgentJarIT {
  private static final String BOOTSTRAP = "dev/whyslow/agent/bootstrap/";
  private static final Pattern TYPE = Pattern.compile("L([A-Za-z0-9_$/]+);");

  @Test
  void everyClassInTheAgentJarIsUnderTheAgentPackage() throws IOException {
    List<String> outside = new ArrayList<>();
    List<String> bootstrapInCore = new ArrayList<>();
    try (JarFile jar = new JarFile(ChildJvm.agentJar().toFile())) {
      for (JarEntry e : java.util.Collections.list(jar.entries())) {
        if (e.getName().endsWith(".class")) {
          if (!e.getName().startsWith("dev/whyslow/agent/")) {
            outside.add(e.getName());
          }
          if (e.getName().startsWith(BOOTSTRAP)) {
            bootstrapInCore.add(e.getName());
          }
        }
      }
      assertThat(jar.getEntry("whyslow-bootstrap.jar")).isNotNull();
      assertThat(jar.getManifest().getMainAttributes().getValue("Premain-Class"))
          .isEqualTo("dev.whyslow.agent.AgentPremain");
    }
    assertThat(outside).as("classes outside dev/whyslow/agent/").isEmpty();
    assertThat(bootstrapInCore).as("bootstrap classes must only be in the nested jar").isEmpty();
  }

  @Test
  void bootstrapClassesReferOnlyToTheJdkAndEachOther() throws IOException {
    List<String> bad = new ArrayList<>();
    int classes = 0;
    try (JarFile jar = new JarFile(ChildJvm.agentJar().toFile());
        InputStream nested = jar.getInputStream(jar.getEntry("whyslow-bootstrap.jar"));
        JarInputStream in = new JarInputStream(nested)) {
      for (JarEntry e = in.getNextJarEntry(); e != null; e = in.getNextJarEntry()) {
        if (!e.getName().endsWith(".class")) {
          continue;
        }
        classes++;
        assertThat(e.getName()).startsWith(BOOTSTRAP);
        for (String type : referencedTypes(in.readAllBytes())) {
          if (!type.startsWith("java/") && !type.startsWith(BOOTSTRAP)) {
            bad.add(e.getName() + " -> " + type);
          }
        }
      }
    }
    assertThat(classes).isGreaterThan(3);
    assertThat(bad).isEmpty();
  }

  /** The text of the CONSTANT_Utf8 entry at {@code offset}; class names are plain ASCII. */
  private static String utf8(ClassReader reader, int offset) {
    int length = reader.readUnsignedShort(offset);
    StringBuilder s = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      s.append((char) (reader.readByte(offset + 2 + i) & 0xff));
    }
    return s.toString();
  }

  /** Class names in constant-pool class entries and in every descriptor-like string. */
  private static List<String> referencedTypes(byte[] classFile) {
    ClassReader reader = new ClassReader(classFile);
    List<String> out = new ArrayList<>();
    char[] buf = new char[65_536];
    for (int i = 1; i < reader.getItemCount(); i++) {
      int offset = reader.getItem(i);
      if (offset == 0) {
        continue;
      }
      int tag = reader.readByte(offset - 1);
      if (tag == 7) { // CONSTANT_Class
        String name = reader.readUTF8(offset, buf); // the entry holds its name's index
        out.add(name.startsWith("[") ? name.replaceAll("^\\[+L?|;$", "") : name);
      } else if (tag == 1) { // CONSTANT_Utf8
        Matcher m = TYPE.matcher(utf8(reader, offset));
        while (m.find()) {
          out.add(m.group(1));
        }
      }
    }
    out.removeIf(n -> n.length() <= 1); // primitive array names like "I"
    return out;
  }
}
