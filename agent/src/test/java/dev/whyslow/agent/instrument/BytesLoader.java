package dev.whyslow.agent.instrument;

/**
 * Defines one class from the given (instrumented) bytes; everything else, the probes included,
 * comes from the parent. Initialising the class links it, and linking runs the verifier.
 */
final class BytesLoader extends ClassLoader {
  private final String name;
  private final byte[] bytes;

  BytesLoader(Class<?> c, byte[] bytes) {
    super(BytesLoader.class.getClassLoader());
    this.name = c.getName();
    this.bytes = bytes;
  }

  @Override
  protected Class<?> loadClass(String className, boolean resolve) throws ClassNotFoundException {
    synchronized (getClassLoadingLock(className)) {
      if (!className.equals(name)) {
        return super.loadClass(className, resolve);
      }
      Class<?> c = findLoadedClass(className);
      return c != null ? c : defineClass(className, bytes, 0, bytes.length);
    }
  }
}
