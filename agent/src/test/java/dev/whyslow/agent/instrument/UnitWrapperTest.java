package dev.whyslow.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.whyslow.agent.bootstrap.RecordingUnitListener;
import dev.whyslow.agent.bootstrap.Units;
import dev.whyslow.agent.config.ProbeSet;
import dev.whyslow.agent.core.MethodRegistry;
import dev.whyslow.agent.core.SiteRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import sample.handlers.Handlers;

/**
 * Entry points are wrapped by name and descriptor in classes outside the scope too (a handler may
 * live in a library), the unit ends when the body throws, and classes that cannot match are refused
 * on their bytes alone.
 */
class UnitWrapperTest {
  private final InstrumentationCounters counters = new InstrumentationCounters();
  private final RecordingUnitListener listener = new RecordingUnitListener();
  private ProbeTransformer transformer;

  @BeforeEach
  void setUp() {
    transformer =
        new ProbeTransformer(
            new Scope(List.of("com.elsewhere"), List.of()),
            ClassInstrumenter.builder(new SiteRegistry(10_000), ProbeSet.DEFAULT, counters)
                .methods(new MethodRegistry())
                .units(true, List.of())
                .build(),
            counters,
            null,
            (name, error) -> {
              throw new AssertionError(name, error);
            });
    Units.install(listener);
  }

  @AfterEach
  void tearDown() {
    Units.install(null);
  }

  @Test
  void aNettyReadOutsideTheScopeIsAUnitEvenWhenItThrows() throws Exception {
    Class<?> c = load(Handlers.Reader.class);
    Object reader = c.getConstructor().newInstance();
    var read =
        c.getMethod("channelRead", io.netty.channel.ChannelHandlerContext.class, Object.class);
    read.invoke(reader, null, "message");
    assertThatThrownBy(() -> read.invoke(reader, null, null))
        .isInstanceOf(InvocationTargetException.class)
        .hasCauseInstanceOf(IllegalArgumentException.class);
    assertThat(c.getField("reads").get(reader)).isEqualTo(1);
    assertThat(listener.ended)
        .extracting(RecordingUnitListener.Ended::type)
        .containsExactly(
            "sample.handlers.Handlers$Reader.channelRead",
            "sample.handlers.Handlers$Reader.channelRead");
    assertThat(counters.unitsWrapped()).isEqualTo(1);
  }

  @Test
  void aServletServiceIsAUnit() throws Exception {
    Class<?> c = load(Handlers.Servlet.class);
    Object servlet = c.getConstructor().newInstance();
    c.getMethod("service", javax.servlet.ServletRequest.class, javax.servlet.ServletResponse.class)
        .invoke(servlet, new javax.servlet.ServletRequest() {}, null);
    assertThat(listener.ended)
        .singleElement()
        .satisfies(e -> assertThat(e.type()).isEqualTo("sample.handlers.Handlers$Servlet.service"));
  }

  @Test
  void sameNameOtherDescriptorIsNotAnEntryPoint() throws IOException {
    assertThat(transform(Handlers.NotAServlet.class)).isNull();
    assertThat(counters.unitsWrapped()).isZero();
  }

  @Test
  void classesWithoutAnyEntryPointMarkerAreNeverParsed() {
    byte[] garbage = "not a class file at all".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    assertThat(transformer.transform(null, null, "org/lib/Thing", null, null, garbage)).isNull();
    assertThat(counters.classesFailed()).isZero();
  }

  private Class<?> load(Class<?> type) throws Exception {
    byte[] wrapped = transform(type);
    assertThat(wrapped).as("wrapped " + type.getName()).isNotNull();
    return Class.forName(type.getName(), true, new BytesLoader(type, wrapped));
  }

  private byte[] transform(Class<?> type) throws IOException {
    String resource = type.getName().substring(type.getPackageName().length() + 1) + ".class";
    byte[] original;
    try (InputStream in = type.getResourceAsStream(resource)) {
      original = in.readAllBytes();
    }
    return transformer.transform(
        null, null, type.getName().replace('.', '/'), null, null, original);
  }
}
