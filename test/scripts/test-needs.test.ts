import { describe, expect, it } from 'vitest';

import { type Machine, testNeedsMissing } from '../../scripts/test-needs.js';

interface Setup {
  env?: NodeJS.ProcessEnv;
  files?: string[];
  commands?: string[];
  /** Whether Debian's python3 has openpyxl (default true). */
  openpyxl?: boolean;
}

const OPENPYXL = '/usr/lib/python3/dist-packages/openpyxl/__init__.py';

/** A made-up machine; it has nothing to run commands with, so nothing can be installed. */
function machine(setup: Setup): Machine {
  const files = new Set([...(setup.files ?? []), ...(setup.openpyxl === false ? [] : [OPENPYXL])]);
  const commands = new Set(setup.commands ?? []);
  return {
    env: setup.env ?? {},
    exists: (path) => files.has(path),
    onPath: (command) => commands.has(command),
    resolves: () => false,
  };
}

describe('testNeedsMissing', () => {
  it('says nothing when Chromium, openpyxl and redis-server are there', () => {
    const m = machine({ files: ['/usr/bin/chromium'], commands: ['redis-server'] });
    expect(testNeedsMissing(m)).toBeUndefined();
  });

  it('takes CHROMIUM_PATH and REDIS_URL instead', () => {
    const m = machine({
      env: { CHROMIUM_PATH: '/opt/chrome/chrome', REDIS_URL: 'redis://r:6379' },
      files: ['/opt/chrome/chrome'],
    });
    expect(testNeedsMissing(m)).toBeUndefined();
  });

  it('names what is missing, why, and the command that installs it', () => {
    const m = machine({ commands: ['redis-server'] });
    expect(testNeedsMissing(m)).toBe(
      "The tests cannot all run: no Chromium at /usr/bin/chromium (the dashboard's browser test drives one). " +
        'Install it (Debian/Ubuntu: `sudo apt-get install chromium`), or set CHROMIUM_PATH to a Chromium or Chrome binary; then run the tests again.',
    );
  });

  it('names every missing package in one install command', () => {
    const said = testNeedsMissing(machine({ openpyxl: false })) ?? '';
    expect(said).toMatch(
      /no Chromium at \/usr\/bin\/chromium .*; no openpyxl for Debian's \/usr\/bin\/python3 .*; no REDIS_URL and no redis-server on PATH/,
    );
    expect(said).toContain('`sudo apt-get install chromium python3-openpyxl redis-server`');
    expect(said).toContain('set REDIS_URL to a Redis the tests may use');
  });

  it('says when CHROMIUM_PATH is wrong, rather than pointing at Debian’s Chromium', () => {
    const m = machine({
      env: { CHROMIUM_PATH: '/nope/chrome' },
      files: ['/usr/bin/chromium'],
      commands: ['redis-server'],
    });
    expect(testNeedsMissing(m)).toMatch(/CHROMIUM_PATH is \/nope\/chrome, which does not exist/);
  });
});

describe('testNeedsMissing for some tests only', () => {
  it('checks only the packages those tests need', () => {
    const m = machine({ openpyxl: false });
    expect(testNeedsMissing(m, ['python3-openpyxl'])).toMatch(
      /^The tests cannot all run: no openpyxl for Debian's \/usr\/bin\/python3 .*`sudo apt-get install python3-openpyxl`\); then/,
    );
    expect(testNeedsMissing(machine({}), ['python3-openpyxl'])).toBeUndefined();
  });
});
