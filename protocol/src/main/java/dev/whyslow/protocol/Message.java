package dev.whyslow.protocol;

/** Everything that travels between agent and daemon. {@link MessageCodec} encodes each type. */
public sealed interface Message
    permits Hello,
        HelloOk,
        ErrorMessage,
        SiteBatch,
        RunBatch,
        AgentStats,
        SetSamplingRate,
        SetEnabled,
        UnitStats,
        ViolationBatch,
        UnitTypeBatch,
        SetThresholds {}
