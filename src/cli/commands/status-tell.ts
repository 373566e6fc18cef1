/**
 * How `status` tells what it found: each office's `orders.changed` delivered by the run itself,
 * with the notifications of its own connection (docs/design.md §2 "Notifications").
 */
import type { Importer } from '../../app/importer.js';
import type { Words } from '../../language/words.js';
import { startNotifyWorker } from '../../workers/start.js';
import type { SheetOutcome } from './status-lines.js';
import { type NotificationWait, waitForNotificationJobs } from './wait-for-sheets.js';

/**
 * The changes found, told: their `orders.changed` delivered by this run itself (no `watch` or
 * `worker` need run beside it), for a bounded time, what is left staying queued; and the sheets
 * whose office has no channel set said, so that a run by hand is never silently lost.
 */
export async function tellChanges(
  outcomes: readonly SheetOutcome[],
  importers: readonly Importer[],
  announce: (line: string) => void,
  wait: NotificationWait & { words: Words },
): Promise<void> {
  const changed = outcomes.filter((o) => (o.status?.changed ?? 0) > 0);
  const told = changed.filter((o) => (o.status?.notifications.length ?? 0) > 0);
  const groups = importers.map((importer) => ({
    ctx: importer.ctx,
    doorbell: importer.doorbell,
    jobIds: told
      .filter((o) => o.sheet.connectionId === importer.connection.id)
      .flatMap((o) => o.status?.notifications ?? []),
  }));
  // The process's one doorbell with several offices: their notify workers share its cap.
  for (const group of groups)
    if (group.jobIds.length > 0) startNotifyWorker(group.ctx, group.doorbell);
  const left = await waitForNotificationJobs(groups, announce, wait);
  if (told.length > 0 && left === 0)
    announce(wait.words.t('cli.status.told', { count: told.length }));
  const silent = changed.length - told.length;
  if (silent > 0) announce(wait.words.t('cli.status.nobody-told', { count: silent }));
}
