/**
 * The image's final stage laid out in a folder, as the Dockerfile says it, since no Docker engine
 * runs here: what it copies (node_modules with the production packages only), the entry point's
 * link, its ENV, ENTRYPOINT, CMD and HEALTHCHECK. What the image runs can then be run as it is.
 */
import { execFile, spawn } from 'node:child_process';
import { cp, mkdir, readFile, symlink } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { promisify } from 'node:util';

import { CliProcess } from './cli.js';
import { copies, env, execForm, finalStage, instructions, readDockerfile } from './dockerfile.js';

const run = promisify(execFile);

export interface LaidOutImage {
  /** The image's WORKDIR, here. */
  app: string;
  entrypoint: string[];
  cmd: string[];
  /** HEALTHCHECK's command, its image paths mapped here. */
  probe: string[];
  /** Runs ENTRYPOINT with `args` in WORKDIR, with the image's ENV, PATH and `extraEnv` only. */
  start(args: readonly string[], extraEnv?: Record<string, string>): CliProcess;
  /** Runs the HEALTHCHECK command (or `probe` with `args`); resolves with its exit code. */
  check(extraEnv?: Record<string, string>, args?: readonly string[]): Promise<number>;
}

export async function layOutImage(root: string, into: string): Promise<LaidOutImage> {
  const stage = finalStage(await readDockerfile(root));
  const workdir = instructions(stage, 'WORKDIR').at(-1) ?? '/';
  // An image path, mapped into `into`.
  const here = (path: string) => join(into, posix.resolve(workdir, path));
  const inBuild = (path: string) => join(root, posix.relative('/app', posix.resolve('/app', path)));
  for (const copy of copies(stage)) {
    const target = here(copy.target);
    await mkdir(dirname(target), { recursive: true });
    const source = copy.from === undefined ? join(root, copy.source) : inBuild(copy.source);
    if (copy.source.endsWith('node_modules')) await productionModules(root, target);
    else await cp(source, target, { recursive: true });
  }
  for (const [, from, to] of instructions(stage, 'RUN')
    .join('\n')
    .matchAll(/ln -s (\S+) (\S+)/g)) {
    await mkdir(dirname(here(to ?? '')), { recursive: true });
    await symlink(here(from ?? ''), here(to ?? ''));
  }
  const imageEnv = env(stage);
  const path = [here('/usr/local/bin'), dirname(process.execPath), '/usr/bin', '/bin'].join(':');
  const mapped = (words: string[]) => words.map((w) => (w.startsWith('/') ? here(w) : w));
  const entrypoint = execForm(instructions(stage, 'ENTRYPOINT').at(-1) ?? '');
  const probe = mapped(execForm(instructions(stage, 'HEALTHCHECK').at(-1) ?? ''));
  const environment = (extra: Record<string, string>) => ({
    PATH: path,
    HOME: into,
    ...imageEnv,
    ...extra,
  });
  return {
    app: here(workdir),
    entrypoint,
    cmd: execForm(instructions(stage, 'CMD').at(-1) ?? ''),
    probe,
    start(args, extraEnv = {}) {
      const [command = '', ...first] = entrypoint;
      const child = spawn(command, [...first, ...args], {
        cwd: here(workdir),
        env: environment(extraEnv),
        detached: true,
      });
      return new CliProcess(child);
    },
    async check(extraEnv = {}, args = []) {
      const [command = '', ...rest] = probe;
      try {
        await run(command, [...rest, ...args], { cwd: here(workdir), env: environment(extraEnv) });
        return 0;
      } catch (error) {
        // A failed probe is an answer (its exit code), not an error of the test.
        const code = (error as { code?: unknown }).code;
        if (typeof code === 'number') return code;
        throw error;
      }
    },
  };
}

/**
 * node_modules as `npm prune --omit=dev` leaves it: the top-level packages the lock file does not
 * mark as development-only, linked from the project's own node_modules.
 */
async function productionModules(root: string, target: string): Promise<void> {
  const lock = JSON.parse(await readFile(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean }>;
  };
  await mkdir(target, { recursive: true });
  for (const [key, entry] of Object.entries(lock.packages)) {
    const name = /^node_modules\/((?:@[^/]+\/)?[^/]+)$/.exec(key)?.[1];
    if (name === undefined || entry.dev === true) continue;
    await mkdir(dirname(join(target, name)), { recursive: true });
    await symlink(join(root, 'node_modules', name), join(target, name));
  }
}
