/** bull-board under /queues: the queues and their jobs, to look at only. */
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';

import { queueNames } from '../store/keys.js';
import type { DashboardOffice } from './overview.js';

/** Each queue of the `offices` shown by its office's name and kind (`gent · rows`). */
export async function mountBoard(
  app: FastifyInstance,
  queues: Queue[],
  offices?: readonly DashboardOffice[],
): Promise<void> {
  const names = queueDisplayNames(offices);
  const board = new FastifyAdapter();
  createBullBoard({
    // Read-only hides bull-board's buttons and makes its API refuse them too (405); the method
    // hook (guard.ts) refuses them whatever a later bull-board version adds.
    queues: queues.map(
      (q) =>
        new BullMQAdapter(q, {
          readOnlyMode: true,
          ...(names.has(q.name) && { displayName: names.get(q.name) }),
        }),
    ),
    serverAdapter: board,
  });
  board.setBasePath('/queues');
  await app.register(board.registerPlugin(), { prefix: '/queues' });
}

/** What bull-board calls each queue of the offices: `gent · rows`, never its hashed name. */
function queueDisplayNames(offices: readonly DashboardOffice[] | undefined): Map<string, string> {
  return new Map(
    (offices ?? []).flatMap((office) =>
      Object.entries(queueNames(office.id)).map(
        ([kind, queue]) => [queue, `${office.name} · ${kind}`] as const,
      ),
    ),
  );
}
