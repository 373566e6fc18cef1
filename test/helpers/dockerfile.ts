/**
 * The Dockerfile read as its instructions, stage by stage: enough for the tests to check what
 * the image holds and to lay out its final stage in a folder, since no Docker engine runs here.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface Instruction {
  keyword: string;
  /** Everything after the keyword, continuation lines joined. */
  args: string;
}

export interface Stage {
  from: string;
  name: string | undefined;
  instructions: Instruction[];
}

/** A COPY of the final stage: from the build stage (`from`) or from the build context. */
export interface Copy {
  from: string | undefined;
  source: string;
  target: string;
}

export async function readDockerfile(root: string): Promise<Stage[]> {
  const text = await readFile(join(root, 'Dockerfile'), 'utf8');
  const logical = text
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const stages: Stage[] = [];
  for (const line of logical) {
    const [keyword = '', ...rest] = line.split(/\s+/);
    const instruction = { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    if (instruction.keyword === 'FROM') {
      const [from = '', as, name] = rest;
      stages.push({
        from,
        name: as?.toUpperCase() === 'AS' ? name : undefined,
        instructions: [],
      });
    } else {
      const stage = stages.at(-1);
      if (stage === undefined) throw new Error(`Dockerfile: ${keyword} before any FROM`);
      stage.instructions.push(instruction);
    }
  }
  return stages;
}

export function finalStage(stages: readonly Stage[]): Stage {
  const stage = stages.at(-1);
  if (stage === undefined) throw new Error('Dockerfile: no stage');
  return stage;
}

export function instructions(stage: Stage, keyword: string): string[] {
  return stage.instructions.filter((i) => i.keyword === keyword).map((i) => i.args);
}

/** The stage's COPY instructions, one source each (as this Dockerfile writes them). */
export function copies(stage: Stage): Copy[] {
  return instructions(stage, 'COPY').map((args) => {
    const words = args.split(/\s+/);
    const from = words.find((w) => w.startsWith('--from='))?.slice('--from='.length);
    const paths = words.filter((w) => !w.startsWith('--'));
    if (paths.length !== 2) throw new Error(`Dockerfile: COPY of one source expected: ${args}`);
    const [source = '', target = ''] = paths;
    return { from, source, target };
  });
}

/** ENV's NAME=value pairs (unquoted values, as this Dockerfile writes them). */
export function env(stage: Stage): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const args of instructions(stage, 'ENV')) {
    for (const pair of args.split(/\s+/)) {
      const eq = pair.indexOf('=');
      if (eq <= 0) throw new Error(`Dockerfile: ENV NAME=value expected: ${args}`);
      pairs[pair.slice(0, eq)] = pair.slice(eq + 1);
    }
  }
  return pairs;
}

/** The JSON (exec) form of ENTRYPOINT, CMD or HEALTHCHECK's CMD; fails on the shell form. */
export function execForm(args: string): string[] {
  const json = args.slice(args.indexOf('['));
  const parsed: unknown = JSON.parse(json);
  const words = Array.isArray(parsed)
    ? parsed.filter((a): a is string => typeof a === 'string')
    : [];
  if (!Array.isArray(parsed) || words.length !== parsed.length || words.length === 0) {
    throw new Error(`Dockerfile: exec form expected: ${args}`);
  }
  return words;
}
