package dev.whyslow.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BootstrapJarTest {
  @TempDir Path dir;

  @Test
  void theBootstrapJarGoesToANewEmptyFileOnlyItsUserCanRead() throws Exception {
    Path first = BootstrapJar.newPrivateFile(dir);
    Path second = BootstrapJar.newPrivateFile(dir);

    assertThat(first).isNotEqualTo(second).hasParent(dir);
    assertThat(first.getFileName().toString()).startsWith("whyslow-bootstrap-").endsWith(".jar");
    assertThat(Files.size(first)).isZero();
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(first)))
        .isEqualTo("rw-------");
  }
}
