/**
 * The installed agent: start-up after premain, the site registry, the process run, the dump, and
 * the link to the transport.
 */
package dev.whyslow.agent.core;
