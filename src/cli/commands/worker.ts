import { serviceStart } from '../../app/importer.js';
import { startWorker } from '../../app/worker.js';
import { createLogger } from '../../logger.js';
import type { SettingFlags } from '../../settings/load.js';
import type { CommandIo } from '../io.js';
import { commandSettings, commandWords, logDestination } from '../setup.js';
import { terminalText } from '../terminal-text.js';

export interface WorkerCommandOptions {
  config?: string;
  settings?: SettingFlags;
}

/**
 * Workers only, for scale-out: as many of these as wanted, on as many hosts, sharing one Redis
 * (and the folders the sheets and reports are in). A first SIGINT/SIGTERM lets the rows in
 * flight finish; a second one stops at once (those rows resume from their recorded step).
 */
export async function workerCommand(opts: WorkerCommandOptions, io: CommandIo): Promise<number> {
  const settings = await commandSettings(io, opts.config, opts.settings);
  const words = commandWords(settings);
  // Its lines may quote what an API answered: nothing from outside reaches the terminal raw.
  const announce = (line: string) => io.stderr.write(`${terminalText(line)}\n`);
  const logger = createLogger({ level: settings.logLevel, destination: logDestination(io) });
  const start = serviceStart(io);
  const worker = await startWorker({ settings, logger, announce, start });
  const served = worker.importers.all
    .map((i) =>
      words.t('cli.worker.served', {
        url: i.apiBaseUrl,
        name: i.connection.name,
        id: i.connection.id,
      }),
    )
    .join(', ');
  announce(words.t('cli.worker.ready', { concurrency: settings.concurrency, served }));
  const signal = await start.firstSignal;
  worker.stopping();
  announce(words.t('cli.worker.stopping', { signal }));
  void io.stopSignal().then(() => {
    announce(words.t('cli.worker.stop-now'));
    void worker.close({ force: true });
  });
  await worker.close({ grace: 'service' });
  announce(words.t('cli.stopped'));
  return 0;
}
