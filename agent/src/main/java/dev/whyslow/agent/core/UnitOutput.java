package dev.whyslow.agent.core;

import dev.whyslow.protocol.Message;
import dev.whyslow.protocol.Run;

/** Where units' runs and messages go: the transport, or a list in tests. Never blocks. */
interface UnitOutput {
  /** Queues a unit run; false when it was dropped. */
  boolean offerRun(Run run);

  /** Queues unit statistics, violations or unit types; false when dropped. */
  boolean offerMessage(Message message);
}
