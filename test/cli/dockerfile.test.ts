import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import { ROOT } from '../helpers/cli.js';
import {
  copies,
  env,
  execForm,
  finalStage,
  instructions,
  readDockerfile,
  type Stage,
} from '../helpers/dockerfile.js';

let stages: Stage[];
let final: Stage;
beforeAll(async () => {
  stages = await readDockerfile(ROOT);
  final = finalStage(stages);
});

describe('the Dockerfile', () => {
  it('builds in a stage of its own and runs from a slim Node 22 without it', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const build = stages[0];
    expect(build?.name).toBeDefined();
    // Node 20 left maintenance in April 2026; 22 is maintained, and both stages build and run on
    // one Node (better-sqlite3 is compiled for the Node it runs on).
    expect(final.from).toMatch(/^node:22(\.[\d.]+)?-bookworm-slim$/);
    expect(build?.from.split(' ')[0]).toBe(final.from);
    const buildRuns = instructions(build ?? final, 'RUN').join('\n');
    expect(buildRuns).toMatch(/npm ci/);
    expect(buildRuns).toMatch(/npm run build/);
    expect(buildRuns).toMatch(/npm prune --omit=dev/);
    // What the final stage takes from the build is named by stage, never built again there.
    for (const copy of copies(final)) {
      if (copy.from !== undefined) expect(copy.from).toBe(build?.name);
    }
  });

  it('runs on a Node that package.json says it supports', async () => {
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
      engines: { node: string };
    };
    const major = /^node:(\d+)/.exec(final.from)?.[1];
    expect(pkg.engines.node.split('||').map((range) => /\^(\d+)\./.exec(range)?.[1])).toContain(
      major,
    );
  });

  it('keeps compilers, npm installs and the TypeScript sources out of the final stage', () => {
    const runs = instructions(final, 'RUN').join('\n');
    expect(runs).not.toMatch(/(^|\s)(python3?|make|g\+\+|gcc|build-essential)(?=\s|$)/m);
    expect(runs).not.toMatch(/npm (ci|install|i)\b/);
    const sources = copies(final).map((c) => c.source);
    expect(sources).not.toContain('.');
    for (const source of sources) {
      expect(source).not.toMatch(/^(\/app\/)?(src|jobs|sandbox|bench|test|scripts)\/?$/);
    }
  });

  it('runs as the unprivileged node user, which owns /data', () => {
    const users = instructions(final, 'USER');
    expect(users.at(-1)).toBe('node');
    expect(instructions(final, 'RUN').join('\n')).toMatch(/chown node:node \/data/);
    expect(env(final).DATA_DIR).toBe('/data');
    expect(instructions(final, 'VOLUME').join(' ')).toContain('/data');
  });

  it("checks its health with node against the dashboard's /healthz, and starts watch", () => {
    const [healthcheck] = instructions(final, 'HEALTHCHECK');
    expect(healthcheck).toBeDefined();
    const probe = execForm(healthcheck ?? '');
    expect(probe[0]).toBe('node');
    expect(probe[1]).toMatch(/docker\/healthcheck\.js$/);
    expect(execForm(instructions(final, 'ENTRYPOINT').at(-1) ?? '')).toEqual(['order-importer']);
    expect(execForm(instructions(final, 'CMD').at(-1) ?? '')).toEqual(['watch']);
  });

  it('honours TZ and holds no secret', () => {
    const vars = stages.flatMap((stage) => Object.entries(env(stage)));
    expect(Object.fromEntries(vars).TZ).toBeDefined();
    for (const [name, value] of vars) {
      expect(name).not.toMatch(/TOKEN|PASSWORD|SECRET|SMTP_URL|WEBHOOK/);
      expect(value).not.toMatch(/sandbox-demo-token/);
    }
    for (const stage of stages) {
      expect(instructions(stage, 'ARG').join(' ')).not.toMatch(/TOKEN|PASSWORD|SECRET/);
    }
  });

  it('copies into the final stage only files that a build makes or the repository has', async () => {
    const built = await builtFolder();
    for (const copy of copies(final)) {
      const path = copy.source.replace(/^\/app\//, '');
      // dist/ is what `npm run build` makes in the build stage: the build's own output folder.
      if (path === built) continue;
      expect(existsSync(join(ROOT, path)), copy.source).toBe(true);
    }
    const sources = copies(final).map((c) => c.source.replace(/^\/app\//, ''));
    // What the built CLI reads at run time, besides its code.
    expect(sources).toEqual(
      expect.arrayContaining([
        'package.json',
        'node_modules',
        'dist',
        'bin',
        'samples',
        'src/dashboard/assets',
      ]),
    );
  });
});

describe('.dockerignore', () => {
  it('keeps local installs, builds, data, env files and the history out of the build context', async () => {
    const ignored = (await readFile(join(ROOT, '.dockerignore'), 'utf8'))
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'));
    expect(ignored).toEqual(
      expect.arrayContaining(['node_modules', 'dist', 'data', '.git', 'test', 'dashboard.env']),
    );
    expect(ignored).toContain('importer.env');
    // The build stage needs these: none may be ignored.
    for (const needed of ['src', 'bin', 'samples', 'package.json', 'package-lock.json']) {
      expect(ignored).not.toContain(needed);
    }
  });
});

/** tsc's outDir for `npm run build` (tsconfig.build.json extends tsconfig.json). */
async function builtFolder(): Promise<string> {
  const config = JSON.parse(await readFile(join(ROOT, 'tsconfig.json'), 'utf8')) as {
    compilerOptions?: { outDir?: string };
  };
  return config.compilerOptions?.outDir ?? '';
}
