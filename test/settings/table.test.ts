import { describe, expect, it } from 'vitest';

import { loadSandboxSettings } from '../../src/settings/load.js';
import { SETTING_ENV, SETTINGS, settingHelp } from '../../src/settings/table.js';
import { knownError } from '../helpers/known-error.js';

describe('the settings table', () => {
  it('gives each setting its own environment variable', () => {
    expect(new Set(SETTING_ENV).size).toBe(SETTING_ENV.length);
  });

  it("writes a flag's help with its variable and the default of its schema", () => {
    expect(settingHelp('concurrency')).toBe(
      'row jobs in flight per process (env CONCURRENCY; default 8)',
    );
    expect(settingHelp('reportsDir')).toBe(
      'where reports go (env REPORTS_DIR; default DATA_DIR/reports)',
    );
    expect(settingHelp('sandboxPort')).toMatch(/\(env SANDBOX_PORT; default 4010\)$/);
    expect(settingHelp('sandboxPhpDefaults')).toBe(SETTINGS.sandboxPhpDefaults.help);
  });
});

describe('loadSandboxSettings', () => {
  it("has the sandbox command's defaults", () => {
    expect(loadSandboxSettings({})).toMatchObject({
      sandboxHost: '127.0.0.1',
      sandboxPort: 4010,
      sandboxRateWindow: 60,
      sandboxSeed: 1,
      sandboxPlanning: 0,
      sandboxRetryAfter: 1,
      sandboxQuirks: true,
      sandboxPhpDefaults: false,
      logLevel: 'info',
    });
  });

  it('takes flags over the environment, and parses sizes, probabilities and tokens', () => {
    const settings = loadSandboxSettings({
      flags: { sandboxPort: '0', sandboxPostMaxSize: '8M' },
      env: { SANDBOX_PORT: '5000', SANDBOX_P503: '0.5', SANDBOX_TOKENS: 'alpha:org-a,beta' },
    });
    expect(settings).toMatchObject({
      sandboxPort: 0,
      sandboxPostMaxSize: 8 * 1024 * 1024,
      sandboxP503: 0.5,
      sandboxTokens: [
        { token: 'alpha', org: 'org-a' },
        { token: 'beta', org: 'org-beta' },
      ],
    });
  });

  it.each([
    [
      { env: { SANDBOX_RATE_LIMIT: '0' } },
      'SANDBOX_RATE_LIMIT must be a whole number from 1 to 9007199254740991 (got "0").',
    ],
    // The wording the sandbox command has always had.
    [
      { env: { LOG_LEVEL: 'loud' } },
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud").',
    ],
    [{ flags: { sandboxProxyBodyLimit: '0' } }, '--proxy-body-limit: must be more than 0.'],
  ])('names the flag or variable of a value it refuses: %j', (input, message) => {
    expect(() => loadSandboxSettings(input)).toThrow(knownError('UserError', 'config.invalid'));
    expect(() => loadSandboxSettings(input)).toThrow(message);
  });
});
