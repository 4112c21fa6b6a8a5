package dev.whyslow.agent.instrument;

import java.io.IOException;
import java.io.InputStream;

/**
 * A fresh class loader that defines the classes under one prefix itself (so the transformer sees
 * them load) and delegates everything else, including the probes, to its parent.
 */
final class IsolatedLoader extends ClassLoader {
  private final String prefix;

  IsolatedLoader(String prefix) {
    super(IsolatedLoader.class.getClassLoader());
    this.prefix = prefix;
  }

  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    synchronized (getClassLoadingLock(name)) {
      if (!name.startsWith(prefix)) {
        return super.loadClass(name, resolve);
      }
      Class<?> c = findLoadedClass(name);
      if (c == null) {
        String resource = name.replace('.', '/') + ".class";
        try (InputStream in = getParent().getResourceAsStream(resource)) {
          if (in == null) {
            throw new ClassNotFoundException(name);
          }
          byte[] bytes = in.readAllBytes();
          c = defineClass(name, bytes, 0, bytes.length);
        } catch (IOException e) {
          throw new ClassNotFoundException(name, e);
        }
      }
      if (resolve) {
        resolveClass(c);
      }
      return c;
    }
  }
}
