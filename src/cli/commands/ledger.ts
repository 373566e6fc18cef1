/**
 * `order-importer ledger rebuild [--connection NAME]`: after a Redis lost its data, the
 * duplicates ledger of each connection rebuilt from the reports and the record of creates on
 * disk (ledger-rebuild.ts); then the installation's marker is written in Redis again, so that
 * imports of those connections run again (store/redis-marker.ts).
 */
import { join } from 'node:path';

import type { SettingFlags, Settings } from '../../settings/load.js';
import { connectApi } from '../../app/api-connection.js';
import { chosenConnection } from '../../app/chosen-connection.js';
import { UserError } from '../../errors.js';
import type { CommandIo } from '../io.js';
import { catalogueOf, installationOfSettings, redisOf } from '../../app/process-parts.js';
import { commandSettings, commandWords } from '../setup.js';
import { terminalText } from '../terminal-text.js';
import { rebuildLedger, rebuildSources, rebuildingIn } from './ledger-rebuild.js';
import { rebuiltLine, skippedLine, unkeyedLine } from './ledger-lines.js';

export interface LedgerCommandOptions {
  config?: string;
  settings?: SettingFlags;
  connection?: string;
}

export async function ledgerCommand(
  args: readonly string[],
  opts: LedgerCommandOptions,
  io: CommandIo,
): Promise<number> {
  if (args.join(' ') !== 'rebuild')
    throw new UserError(
      'ledger.unknown-action',
      `order-importer ledger ${args.join(' ')}: the one action is "rebuild".`,
      { values: { action: args.join(' ') } },
    );
  const settings = await commandSettings(io, opts.config, opts.settings);
  const words = commandWords(settings);
  const announce = (line: string) => io.stderr.write(`${terminalText(line)}\n`);
  const chosen = chosenOnes(settings, opts.connection);
  const installation = await installationOfSettings(settings);
  const catalogue = await catalogueOf(settings);
  const resolved = await redisOf(settings, announce);
  try {
    const sources = await rebuildSources({
      reportsDir: settings.reportsDir,
      dataDir: settings.dataDir,
      ledgerDays: settings.ledgerDays,
      now: Date.now(),
    });
    const redis = await rebuildingIn(resolved.target, settings, installation.id);
    try {
      const ids: string[] = [];
      for (const configured of chosen) {
        const api = await connectApi(settings, announce, configured);
        try {
          const ledger = redis.ledgerOf(api.connection.id);
          const disk = {
            archiveDir: settings.archiveDir,
            sheetsDir: join(settings.dataDir, 'sheets'),
            catalogue,
            maxAttachmentBytes: Math.floor(settings.maxAttachmentMb * 1024 * 1024),
            // Not checked now: a mapping that cannot be used is said for the sheets it concerns.
            mappings: {
              ...(configured?.mapping !== undefined && { connection: configured.mapping }),
              ...(settings.mappingFile !== undefined && { config: settings.mappingFile }),
            },
          };
          const counts = await rebuildLedger(
            ledger,
            api.connection,
            sources,
            chosen.length === 1,
            disk,
          );
          announce(rebuiltLine(api.connection.name, counts, words));
          for (const one of counts.unkeyed) announce(unkeyedLine(one, words));
          ids.push(api.connection.id);
        } finally {
          await api.close();
        }
      }
      for (const one of sources.skipped) announce(skippedLine(one, words));
      // Every connection rebuilt: the installation is whole in this Redis again.
      await redis.markRebuilt(ids, opts.connection === undefined);
    } finally {
      redis.close();
    }
  } finally {
    await resolved.release();
  }
  announce(words.t('cli.ledger.done'));
  return 0;
}

/** The connections to rebuild: the one named, else every one (API_BASE_URL's when none). */
function chosenOnes(
  settings: Settings,
  name: string | undefined,
): Array<Settings['connections'][number] | undefined> {
  if (name !== undefined) return [chosenConnection(settings, name)];
  return settings.connections.length === 0 ? [undefined] : [...settings.connections];
}
