/**
 * ioredis' Sentinel connector, less one fault of its own. A disconnect that comes while it asks
 * the sentinels where the master is (no connection to a master yet) — its failover detector
 * hearing `+switch-master` while the client reconnects after the master died, or BullMQ's
 * watchdog of a blocking command — makes that attempt fail as "closed", and ioredis then ends the
 * client for good: it never reconnects, and the work it served stands still until a restart (what
 * users of BullMQ on Sentinel report). Here such an attempt ends as a connection that closed at
 * once: ioredis' own close handling then decides, as for any other closed connection, whether to
 * reconnect (a failover, a watchdog) or to end (a client closed on purpose).
 */
import { Socket } from 'node:net';

import { SentinelConnector } from 'ioredis';

type Attempt = ReturnType<SentinelConnector['connect']>;

export class ReconnectingSentinelConnector extends SentinelConnector {
  /** ioredis gives a connector the client's options (those of a Sentinel set, here). */
  constructor(options: unknown) {
    super(options as ConstructorParameters<typeof SentinelConnector>[0]);
  }

  override async connect(eventEmitter: Parameters<SentinelConnector['connect']>[0]): Attempt {
    try {
      return await super.connect(eventEmitter);
    } catch (error) {
      if (!(error instanceof Error) || !/^Connection is closed/.test(error.message)) throw error;
      const closed = new Socket();
      closed.destroy();
      return closed;
    }
  }
}
