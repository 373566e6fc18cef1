import { beforeAll, describe, expect, it } from 'vitest';

import { connectApi } from '../../src/app/api-connection.js';
import { loadSettings } from '../../src/settings/load.js';
import { tempDir } from '../helpers/files.js';

let cwd: string;
beforeAll(async () => {
  cwd = await tempDir('api-connection-');
});

async function embeddedPlanning(env: Record<string, string>): Promise<number | undefined> {
  const settings = await loadSettings({ cwd, env: { DATA_DIR: 'data', ...env } });
  const api = await connectApi(settings, () => undefined);
  try {
    return api.sandbox?.options.planning;
  } finally {
    await api.close();
  }
}

describe('the embedded sandbox', () => {
  it('plans orders 60 s after they are created unless SANDBOX_PLANNING_S says otherwise', async () => {
    expect(await embeddedPlanning({})).toBe(60);
    expect(await embeddedPlanning({ SANDBOX_PLANNING_S: '0' })).toBe(0);
    expect(await embeddedPlanning({ SANDBOX_PLANNING_S: '5' })).toBe(5);
  });
});
