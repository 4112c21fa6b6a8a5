package dev.whyslow.examples.bugs;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Bug kind 2, a function whose return value reveals the slow case (Song and Lu's Apache#3278, where
 * {@code pthread_cond_timedwait} returning a timeout gave the problem away). A page renderer keeps
 * compiled templates per language and preloads them at start-up, but a lookup builds its key from
 * the request's full locale, so a request for {@code de-AT} misses the {@code de} entry and the
 * template is compiled again, on every such request. Good inputs ask for plain languages; bad
 * inputs also carry regional locales. The miss is visible only as {@link TemplateCache#lookup}
 * returning {@code null}: the caller hands the result to {@code Objects.requireNonNullElseGet}.
 *
 * <p>Usage: {@code TemplateCacheMiss good|bad <seed>}.
 */
public final class TemplateCacheMiss {
  static final String[] LANGUAGES = {"en", "de", "fr", "es", "it"};

  private TemplateCacheMiss() {}

  public static void main(String[] args) {
    WorkloadArgs run = WorkloadArgs.parse(args);
    Inputs.Site site = Inputs.generate(run.bad(), run.seed());
    long started = System.nanoTime();
    TemplateCache cache = new TemplateCache();
    cache.preload(site.templates(), LANGUAGES);
    long length = 0;
    for (int r = 0; r < site.requests().length; r++) {
      Inputs.Request request = site.requests()[r];
      String name = request.template();
      Template template =
          Objects.requireNonNullElseGet(
              cache.lookup(name, request.locale()),
              () -> cache.compileAndStore(name, request.locale(), site.templates().get(name)));
      length += template.render(request.values()).length();
    }
    System.out.println(run.describe(length + cache.compilations, System.nanoTime() - started));
  }

  /** Compiled templates by name and locale. */
  static final class TemplateCache {
    private final Map<String, Template> compiled = new HashMap<>();
    long compilations;

    void preload(Map<String, String> sources, String[] languages) {
      for (Map.Entry<String, String> source : sources.entrySet()) {
        for (int l = 0; l < languages.length; l++) {
          compileAndStore(source.getKey(), languages[l], source.getValue());
        }
      }
    }

    /** The cached template, or null when it has not been compiled for this locale. */
    Template lookup(String name, String locale) {
      return compiled.get(name + ":" + locale); // ROOT CAUSE: return null (cache miss)
    }

    Template compileAndStore(String name, String locale, String source) {
      Template template = Template.compile(source);
      compilations++;
      compiled.put(name + ":" + language(locale), template);
      return template;
    }

    /** {@code de} for {@code de} and {@code de-AT}: templates differ by language only. */
    static String language(String locale) {
      return locale.substring(0, 2);
    }
  }

  /** A template split into literal text and numbered placeholders such as {@code {2}}. */
  record Template(String[] literals, int[] slots) {
    static final Pattern PLACEHOLDER = Pattern.compile("\\{(\\d+)}");
    static final Pattern WHITESPACE = Pattern.compile("\\s+");
    static final Pattern TAG = Pattern.compile("<(/?)([a-z]+)[^>]*>");

    /** Minifies the source, checks its tags and splits it at the placeholders. */
    static Template compile(String source) {
      String minified = WHITESPACE.matcher(source).replaceAll(" ");
      requireBalancedTags(minified);
      List<String> literals = new ArrayList<>();
      List<Integer> slots = new ArrayList<>();
      Matcher placeholder = PLACEHOLDER.matcher(minified);
      int literalStart = 0;
      while (placeholder.find()) {
        literals.add(minified.substring(literalStart, placeholder.start()));
        slots.add(Integer.parseInt(placeholder.group(1)));
        literalStart = placeholder.end();
      }
      literals.add(minified.substring(literalStart));
      int[] slotArray = new int[slots.size()];
      for (int s = 0; s < slotArray.length; s++) {
        slotArray[s] = slots.get(s);
      }
      return new Template(literals.toArray(new String[0]), slotArray);
    }

    /**
     * @throws IllegalArgumentException at the first closing tag that does not match the open one
     */
    static void requireBalancedTags(String html) {
      Deque<String> open = new ArrayDeque<>();
      Matcher tag = TAG.matcher(html);
      while (tag.find()) {
        if (tag.group(1).isEmpty()) {
          open.push(tag.group(2));
        } else if (!tag.group(2).equals(open.poll())) {
          throw new IllegalArgumentException(
              "template has </" + tag.group(2) + "> at " + tag.start() + " without its <tag>");
        }
      }
      if (!open.isEmpty()) {
        throw new IllegalArgumentException("template leaves <" + open.peek() + "> open");
      }
    }

    String render(String[] values) {
      StringBuilder out = new StringBuilder(literals[0]);
      for (int s = 0; s < slots.length; s++) {
        out.append(values[slots[s] % values.length]).append(literals[s + 1]);
      }
      return out.toString();
    }
  }

  /** The input generator, not part of the program under diagnosis: the agent excludes it. */
  static final class Inputs {
    record Request(String template, String locale, String[] values) {}

    record Site(Map<String, String> templates, Request[] requests) {}

    private static final String[] REGIONS = {"AT", "CH", "CA", "MX", "BE"};

    private Inputs() {}

    static Site generate(boolean bad, long seed) {
      SplittableRandom random = new SplittableRandom(seed);
      Map<String, String> templates = new HashMap<>();
      int count = 10 + random.nextInt(5);
      for (int t = 0; t < count; t++) {
        templates.put("page" + t, source(random));
      }
      Request[] requests = new Request[2500 + random.nextInt(500)];
      for (int r = 0; r < requests.length; r++) {
        String locale = LANGUAGES[random.nextInt(LANGUAGES.length)];
        // Bad inputs: a third of the visitors come with a regional locale such as de-AT.
        if (bad && random.nextInt(3) == 0) {
          locale = locale + "-" + REGIONS[random.nextInt(REGIONS.length)];
        }
        String[] values = {"v" + random.nextInt(100), "w" + random.nextInt(100), "x"};
        requests[r] = new Request("page" + random.nextInt(count), locale, values);
      }
      return new Site(templates, requests);
    }

    private static String source(SplittableRandom random) {
      StringBuilder source = new StringBuilder();
      int parts = 8 + random.nextInt(8);
      for (int p = 0; p < parts; p++) {
        source.append("<div class=\"row\">\n  <p>Lorem ipsum dolor sit amet, consectetur");
        source.append(" adipiscing elit, sed do <b>eiusmod</b> tempor incididunt ut labore et");
        source
            .append("\n    dolore magna aliqua. Ut enim ad minim veniam, quis nostrud ")
            .append(p);
        source.append(" {").append(random.nextInt(3)).append("}</p>\n</div>\n");
      }
      return source.toString();
    }
  }
}
