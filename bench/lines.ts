/** What a measure of the suite gives back: lines of the table, each with its figures and targets. */
import { cpus, loadavg } from 'node:os';

/** `not run`: left out by `--only`; `not measured`: no measure exists yet; `failed`: it broke. */
export type Status = 'met' | 'NOT met' | 'not measured' | 'failed' | 'not run';

/** The machine's load averages (1, 5, 15 minutes) and cores at one moment. */
export interface Load {
  loadavg: number[];
  cores: number;
}

export const loadNow = (): Load => ({
  loadavg: loadavg().map((n) => Math.round(n * 100) / 100),
  cores: cpus().length,
});

/** One line of the table and one entry of the JSON document. */
export interface Line {
  /** The JSON key, stable: scripts read it. */
  key: string;
  /** What is measured, for people. */
  label: string;
  status: Status;
  /** Table cells, a string per line of the cell. */
  product: string[];
  peers: string[];
  target: string[];
  /** Every figure measured, for the JSON document; null when nothing was. */
  figures: Record<string, unknown> | null;
  /** The targets as numbers, for the JSON document. */
  targets: Record<string, number>;
  /** The machine's load when the measure began and ended. */
  load: { before: Load; after: Load } | null;
  /** Why nothing was measured, or what failed. */
  note?: string;
}

/** A line's identity and targets, known before anything is measured. */
export interface LineSpec {
  key: string;
  label: string;
  targets: Record<string, number>;
  target: string[];
}

/** A measure of the suite: one run that gives one or more lines. */
export interface Measure {
  /** Its name for `--only`. */
  name: string;
  /** Other names `--only` takes for it. */
  aliases?: string[];
  lines: LineSpec[];
  /** Runs it with every row count multiplied by `scale`. */
  run(scale: number): Promise<Line[]>;
}

/** A line with its spec's identity and targets. */
export function line(
  spec: LineSpec,
  rest: Omit<Line, 'key' | 'label' | 'targets' | 'target'> & { target?: string[] },
): Line {
  return { key: spec.key, label: spec.label, targets: spec.targets, target: spec.target, ...rest };
}

/** The lines of a measure that could not give its figures. */
export function unmeasured(measure: Measure, status: Status, note: string): Line[] {
  return measure.lines.map((spec) =>
    line(spec, { status, product: [], peers: [], figures: null, load: null, note }),
  );
}

/** `default × scale` rows, at least `floor`. */
export const scaled = (rows: number, scale: number, floor = 100): number =>
  Math.max(floor, Math.round(rows * scale));

export const perSecond = (rows: number, ms: number): number => (rows / ms) * 1000;

/** 1234.5 → "1,235"; under 100, one decimal. */
export const figure = (n: number): string =>
  n >= 100 ? Math.round(n).toLocaleString('en') : n.toFixed(1);

/** Progress while the suite runs, on stderr so that stdout holds the table and the JSON only. */
export const progress = (text: string): void => {
  process.stderr.write(`${text}\n`);
};

export const MB = 1024 * 1024;

/** What a measured child reports of its run over a sheet (validate-run.ts, raw-csv.ts). */
export interface SheetRun {
  rows: number;
  ms: number;
  /** CPU time of the process (user and system, its GC threads too). */
  cpuMs: number;
  maxRssBytes: number;
  valid?: number;
  invalid?: number;
}

/** A run's figures as the JSON gives them. */
export const runFigures = (m: SheetRun) => ({
  rowsPerSecond: perSecond(m.rows, m.ms),
  seconds: m.ms / 1000,
  cpuSeconds: m.cpuMs / 1000,
  peakRssMB: m.maxRssBytes / MB,
});
