/**
 * What `ledger rebuild` says, in the person's language: each connection's ledger rebuilt, what it
 * passed over, and the rows it could not key again.
 */
import type { Words } from '../../language/words.js';
import { errorMessage } from '../error-line.js';
import type { RebuildCounts, Skipped, Unkeyed } from './ledger-rebuild.js';

/** What was rebuilt for one connection, and from what. */
export function rebuiltLine(name: string, counts: RebuildCounts, words: Words): string {
  const unkeyed = counts.keyless - counts.rekeyed;
  return [
    words.t('cli.ledger.rebuilt', {
      name,
      reports: counts.reports,
      unreported: counts.unreported,
      created: counts.created,
      unknown: counts.unknown,
      kept: counts.kept,
    }),
    ...(counts.rekeyed > 0 ? [words.t('cli.ledger.rekeyed', { count: counts.rekeyed })] : []),
    ...(unkeyed > 0 ? [words.t('cli.ledger.keyless', { count: unkeyed })] : []),
  ].join(' ');
}

/** `Skipped: …`, for something the rebuild could not read. */
export function skippedLine(skipped: Skipped, words: Words): string {
  return words.t('cli.ledger.skipped', { what: skippedWhat(skipped, words) });
}

function skippedWhat(skipped: Skipped, words: Words): string {
  switch (skipped.kind) {
    case 'link':
      return words.t('cli.ledger.skipped.link', { path: skipped.path });
    case 'creates-link':
      return words.t('cli.ledger.skipped.creates-link', { file: skipped.file });
    case 'creates-lines':
      return words.t('cli.ledger.skipped.creates-lines', {
        file: skipped.file,
        count: skipped.count,
      });
    case 'report':
      return errorMessage(skipped.error, words);
  }
}

/** A report's rows that could not be keyed again: a re-import could create them twice. */
export function unkeyedLine(unkeyed: Unkeyed, words: Words): string {
  return words.t('cli.ledger.unkeyed', {
    count: unkeyed.count,
    sheetId: unkeyed.sheetId,
    dir: unkeyed.dir,
    why: unkeyed.why ?? words.t('cli.ledger.unkeyed.no-reason'),
  });
}
