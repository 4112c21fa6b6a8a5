package dev.whyslow.agent.bootstrap;

import java.lang.invoke.CallSite;
import java.lang.invoke.LambdaConversionException;
import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The bootstrap methods of the lambda sites in instrumented classes: each site is linked by {@link
 * LambdaMetafactory} once per class and key, and a later link of the same site gets the same call
 * site back, so the same lambda class.
 *
 * <p>Why: retransforming a class (sampling windows, guards chosen after training) gives it a new
 * constant pool, and every {@code invokedynamic} in it is linked again. Linked by the JDK's
 * metafactory, each would get a new lambda class, and those classes flow into the JDK's shared
 * code: on the example shop, {@code TimSort}'s comparator calls, {@code Comparator.comparingLong}'s
 * key call and {@code HashMap.merge}'s function saw one class more per retransformation, and C2,
 * which inlines a call site with at most two receiver classes, made them virtual calls for every
 * caller (bench/LATENCY.md). The old lambda class calls its implementation method by name, so after
 * a retransformation it runs that method's new code.
 *
 * <p>The key is the site's name, type and arguments, written by the instrumenter; two sites with
 * equal keys in one class create the same lambda and may share a class, as the language allows.
 */
public final class StableLambdas {
  private static final ClassValue<ConcurrentHashMap<String, CallSite>> SITES =
      new ClassValue<ConcurrentHashMap<String, CallSite>>() {
        @Override
        protected ConcurrentHashMap<String, CallSite> computeValue(Class<?> type) {
          return new ConcurrentHashMap<String, CallSite>();
        }
      };

  private StableLambdas() {}

  /** Stands for {@link LambdaMetafactory#metafactory}, with the site's key first. */
  public static CallSite metafactory(
      MethodHandles.Lookup caller,
      String name,
      MethodType type,
      String key,
      MethodType erasedSignature,
      MethodHandle implementation,
      MethodType instantiatedSignature)
      throws LambdaConversionException {
    ConcurrentHashMap<String, CallSite> sites = SITES.get(caller.lookupClass());
    CallSite site = sites.get(key);
    if (site != null) {
      return site;
    }
    site =
        LambdaMetafactory.metafactory(
            caller, name, type, erasedSignature, implementation, instantiatedSignature);
    return keep(sites, key, site);
  }

  /** Stands for {@link LambdaMetafactory#altMetafactory}, with the site's key first. */
  public static CallSite altMetafactory(
      MethodHandles.Lookup caller, String name, MethodType type, String key, Object... arguments)
      throws LambdaConversionException {
    ConcurrentHashMap<String, CallSite> sites = SITES.get(caller.lookupClass());
    CallSite site = sites.get(key);
    if (site != null) {
      return site;
    }
    site = LambdaMetafactory.altMetafactory(caller, name, type, arguments);
    return keep(sites, key, site);
  }

  /** The first of two threads linking one site at once wins, so both get one class. */
  private static CallSite keep(
      ConcurrentHashMap<String, CallSite> sites, String key, CallSite site) {
    CallSite first = sites.putIfAbsent(key, site);
    return first != null ? first : site;
  }
}
