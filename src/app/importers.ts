/**
 * Every connection a process serves (`watch`, `worker`, and `import --connection`): one importer
 * per connection — its own API client, token, context and workers — over one Redis and one
 * catalogue. Without `connections` in the config file, the one importer of API_BASE_URL (or of
 * the embedded sandbox).
 */
import type { ConfiguredConnection } from '../settings/connections.js';
import type { Settings } from '../settings/load.js';
import { apiHost } from '../store/progress.js';
import type { CloseOptions } from '../workers/stop.js';
import { UserError } from '../errors.js';
import { wordsFor } from '../language/words.js';
import { type Importer, openImporter, type OpenImporterOptions } from './importer.js';
import { sharedParts } from './process-shared.js';

// Where `import` finds it beside openChosen; `validate` imports it from its own module, without
// the importer.
export { chosenConnection } from './chosen-connection.js';

export interface Importers {
  /** In the config file's order; one when it has no connections. */
  all: Importer[];
  /** Closes every one (a second call with `force` stops them at once), then Redis's server. */
  close(how?: ClosingAll): Promise<void>;
}

/** How to close them all; `afterWorkers` is called for each, once its workers have stopped. */
export interface ClosingAll extends Omit<CloseOptions, 'afterWorkers'> {
  afterWorkers?: (importer: Importer) => Promise<void>;
}

function closingOne(importer: Importer, how: ClosingAll): CloseOptions {
  const { afterWorkers, ...rest } = how;
  return afterWorkers === undefined
    ? rest
    : { ...rest, afterWorkers: () => afterWorkers(importer) };
}

/** Opens one importer for these parts. */
type Opener = (parts: Pick<OpenImporterOptions, 'connection' | 'shared'>) => Promise<Importer>;

/**
 * The importers of `connections` (each announced), opened side by side: an API away at start
 * delays its own office, not the others' start-up checks. Any that fails closes those opened.
 * They share the process's parts: one Redis, its two clients and one doorbell (their workers on
 * demand), so that its connections do not grow with its offices.
 */
export async function openEach(
  settings: Settings,
  connections: readonly ConfiguredConnection[],
  told: Pick<OpenImporterOptions, 'announce' | 'logger'>,
  open: Opener,
): Promise<Importers> {
  const { announce, logger } = told;
  if (connections.length === 0) {
    const one = await open({});
    return { all: [one], close: (how = {}) => one.close(closingOne(one, how)) };
  }
  const shared = await sharedParts(settings, told);
  const opening = await Promise.allSettled(
    connections.map((connection) => open({ connection, shared })),
  );
  const all = opening.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
  let released: Promise<void> | undefined;
  const close = async (how: ClosingAll = {}) => {
    await Promise.all(all.map((importer) => importer.close(closingOne(importer, how))));
    released ??= (async () => {
      shared.doorbell.close();
      shared.clients.close();
      await shared.redis.release();
    })();
    await released;
  };
  const failed = opening.find((o) => o.status === 'rejected');
  if (failed !== undefined) {
    await close({ grace: 'brief' });
    throw failed.reason;
  }
  const same = sameConnection(all);
  if (same !== undefined) {
    await close({ grace: 'brief' });
    throw same;
  }
  for (const importer of all) announce(connectionLine(importer));
  logger.debug({ offices: all.length }, 'offices opened');
  return { all, close };
}

/**
 * Two entries of one API and one token are one connection under two names: one queue, one
 * ledger, one count of what is left. A sheet of one office would be worked, recovered and named
 * by the other's importer, so that is refused at start.
 */
function sameConnection(all: readonly Importer[]): UserError | undefined {
  for (const [i, a] of all.entries()) {
    const b = all.slice(i + 1).find((other) => other.connection.id === a.connection.id);
    if (b === undefined) continue;
    return new UserError(
      'connections.same-api',
      `Connections "${a.connection.name}" and "${b.connection.name}" have the same API (${a.apiBaseUrl}) and the same token: they are one connection, one organisation. Give them one entry (its inbox's subfolders may each carry their own mapping.json), or each office its own token.`,
      { values: { a: a.connection.name, b: b.connection.name, url: a.apiBaseUrl } },
    );
  }
  return undefined;
}

/** What a person is told of a connection at start: its name, its API, never its token. */
export function connectionLine(importer: Importer): string {
  const { name, sandbox } = importer.connection;
  return wordsFor(importer.ctx.settings.language ?? 'en').t('cli.connection', {
    name,
    sandbox: sandbox ? 'yes' : 'no',
    host: apiHost(importer.apiBaseUrl) ?? importer.apiBaseUrl,
    url: importer.apiBaseUrl,
    mapping: importer.configured?.mapping ?? 'none',
  });
}

/**
 * `import`'s importer: of the connection `chosenConnection` gave (announced, since the config
 * file has several and a person should see which one), or of API_BASE_URL (or the sandbox).
 */
export async function openChosen(
  options: OpenImporterOptions,
  configured: ConfiguredConnection | undefined,
): Promise<Importer> {
  if (configured === undefined) return openImporter(options);
  const importer = await openImporter({ ...options, connection: configured });
  options.announce(connectionLine(importer));
  return importer;
}
