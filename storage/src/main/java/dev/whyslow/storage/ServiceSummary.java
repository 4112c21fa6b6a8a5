package dev.whyslow.storage;

import java.util.Set;

/** What the store knows of one service: its instances and versions, sites and runs. */
public record ServiceSummary(
    String service,
    Set<String> instances,
    Set<String> serviceVersions,
    long siteCount,
    long runCount,
    long lastRunStartEpochMillis) {}
