/**
 * The agent's configuration: keys, precedence (agent arguments, system properties, environment,
 * file, defaults) and validation that reports bad values and falls back to defaults.
 */
package dev.whyslow.agent.config;
