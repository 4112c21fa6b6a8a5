package dev.whyslow.examples.shop;

/**
 * A small JSON writer for the shop's replies: fields are appended in order, commas are placed for
 * the caller. Every request kind renders through it, so it is shared code in every unit type.
 */
final class JsonOut {
  private final StringBuilder out = new StringBuilder(256);
  private boolean first = true;

  JsonOut begin() {
    out.append('{');
    first = true;
    return this;
  }

  JsonOut end() {
    out.append('}');
    first = false;
    return this;
  }

  JsonOut beginArray(String name) {
    key(name).append('[');
    first = true;
    return this;
  }

  JsonOut endArray() {
    out.append(']');
    first = false;
    return this;
  }

  /** Starts an object as the value of field {@code name}; close it with {@link #end()}. */
  JsonOut object(String name) {
    key(name).append('{');
    first = true;
    return this;
  }

  /** Starts an object inside an array. */
  JsonOut element() {
    comma();
    out.append('{');
    first = true;
    return this;
  }

  JsonOut field(String name, String value) {
    key(name);
    string(value);
    return this;
  }

  JsonOut field(String name, long value) {
    key(name).append(value);
    return this;
  }

  JsonOut field(String name, double value) {
    key(name).append(Double.isFinite(value) ? Double.toString(value) : "null");
    return this;
  }

  JsonOut field(String name, boolean value) {
    key(name).append(value);
    return this;
  }

  /** A money amount in cents, written as a decimal string such as {@code "12.05"}. */
  JsonOut money(String name, long cents) {
    return field(name, Pricing.format(cents));
  }

  JsonOut value(String text) {
    comma();
    string(text);
    return this;
  }

  @Override
  public String toString() {
    return out.toString();
  }

  private StringBuilder key(String name) {
    comma();
    string(name);
    return out.append(':');
  }

  private void comma() {
    if (!first) {
      out.append(',');
    }
    first = false;
  }

  private void string(String text) {
    out.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c < 0x20) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    out.append('"');
  }
}
