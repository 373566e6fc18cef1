/** What `watch` and `dashboard` say of the dashboard's reach before and once it listens. */
import type { RunningDashboard } from '../dashboard/server.js';
import { exposureProblem, LOOPBACK_HOSTS } from '../dashboard/hosts.js';
import { wordsFor } from '../language/words.js';
import type { Settings } from '../settings/load.js';

/** Refused before anything starts: a dashboard open beyond this machine needs a password. */
export function refuseExposure(settings: Settings): void {
  const problem = exposureProblem({
    host: settings.dashboardHost,
    ...(settings.dashboardUser !== undefined && { user: settings.dashboardUser }),
    ...(settings.dashboardPassword !== undefined && { password: settings.dashboardPassword }),
    ...(settings.dashboardUsersFile !== undefined && { users: settings.dashboardUsersFile }),
    hosts: settings.dashboardHosts,
  });
  if (problem !== undefined) throw problem;
}

/**
 * Which host names the dashboard answers, when someone set it up to be reached by another name
 * than localhost: a browser that uses another one gets a refusal, and this says why.
 */
export function announceHosts(
  settings: Settings,
  dashboard: RunningDashboard,
  announce: (line: string) => void,
): void {
  const named = settings.dashboardHosts.length > 0;
  if (!named && LOOPBACK_HOSTS.includes(settings.dashboardHost)) return;
  announce(
    wordsFor(settings.language).t('cli.dashboard.hosts', {
      hosts: dashboard.hosts.join(', '),
      advice: named ? 'no' : 'yes',
    }),
  );
}
