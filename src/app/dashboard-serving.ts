/** The dashboard as `watch` and `dashboard` serve it: refused when open, told where it is. */
import { Agent } from 'undici';

import { ApiClient } from '../api/client.js';
import {
  type DashboardOptions,
  type RunningDashboard,
  startDashboard,
} from '../dashboard/server.js';
import { readUsersFile } from '../dashboard/users.js';
import type { Settings } from '../settings/load.js';
import { UserError } from '../errors.js';
import { agendaSource } from './agenda-source.js';
import { probeApi, readToken } from './api-connection.js';

export { viewOfContexts } from './agenda-source.js';
import { API_KEEP_ALIVE_MS } from '../policy.js';

/** What a command's dashboard on a taken port is told to do, in English (the catalogue's too). */
const PORT_ADVICE = {
  port: 'set DASHBOARD_PORT or --port',
  'no-dashboard': 'set DASHBOARD_PORT, or --no-dashboard',
} as const;

/** The dashboard on the settings' host and port, with a clear error when it cannot listen. */
export async function serveDashboard(
  settings: Settings,
  parts: Pick<
    DashboardOptions,
    | 'overview'
    | 'notTaken'
    | 'sheet'
    | 'results'
    | 'health'
    | 'readiness'
    | 'metrics'
    | 'queues'
    | 'logger'
  > &
    // Always its offices: a dashboard of a command shows only its own configuration's sheets.
    Required<Pick<DashboardOptions, 'offices'>> & {
      /** The inspections the agenda shows; none: no /agenda. */
      agenda?: Parameters<typeof agendaSource>[1];
    },
  /** What to do when the port is taken: another port (`dashboard`), or none (`watch`). */
  portAdvice: 'port' | 'no-dashboard',
): Promise<RunningDashboard> {
  const { agenda, ...shown } = parts;
  // Read before the port is taken: a bad file is one line, and nothing started.
  const users =
    settings.dashboardUsersFile === undefined
      ? undefined
      : await readUsersFile(settings.dashboardUsersFile);
  try {
    return await startDashboard({
      host: settings.dashboardHost,
      port: settings.dashboardPort,
      hosts: settings.dashboardHosts,
      language: settings.language,
      ...(settings.dashboardUser !== undefined && { user: settings.dashboardUser }),
      ...(settings.dashboardPassword !== undefined && { password: settings.dashboardPassword }),
      ...(users !== undefined && { users }),
      ...shown,
      ...(agenda !== undefined && { agenda: agendaSource(settings, agenda) }),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES') {
      throw new UserError(
        'dashboard.port-unavailable',
        `The dashboard cannot listen on ${settings.dashboardHost}:${settings.dashboardPort} (${code}): ${PORT_ADVICE[portAdvice]}.`,
        {
          cause: error,
          variant: portAdvice,
          values: { host: settings.dashboardHost, port: String(settings.dashboardPort), code },
        },
      );
    }
    throw error;
  }
}

/**
 * Whether the API answers, for /healthz. Without API_BASE_URL the orders go to a sandbox inside
 * the importing process, which a dashboard alone cannot see: the answer is then null.
 */
export async function apiHealth(
  settings: Settings,
): Promise<{ answers(): Promise<boolean | null>; close(): Promise<void> }> {
  if (settings.apiBaseUrl === undefined)
    return { answers: () => Promise.resolve(null), close: () => Promise.resolve() };
  const dispatcher = new Agent({ keepAliveTimeout: API_KEEP_ALIVE_MS, connections: 2 });
  const client = new ApiClient({
    baseUrl: settings.apiBaseUrl,
    token: await readToken(settings),
    timeoutMs: settings.apiTimeoutMs,
    dispatcher,
  });
  return {
    answers: async () => (await probeApi(client)) === undefined,
    close: () => dispatcher.close(),
  };
}
