/** Reading what /metrics serves, for tests: every sample with its labels, and sums over them. */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (comments left out). */
export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key = '', value = ''] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      labels[key] = value.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    samples.push({ name: match[1] ?? '', labels, value: Number(match[3]) });
  }
  return samples;
}

/** The samples of `name`, summed by the values of `by` (joined with a space). */
export function sumBy(
  samples: readonly Sample[],
  name: string,
  by: readonly string[],
): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const s of samples) {
    if (s.name !== name) continue;
    const key = by.map((label) => s.labels[label] ?? '').join(' ');
    sums[key] = (sums[key] ?? 0) + s.value;
  }
  return sums;
}

/** GET `url`, its status and text. */
export async function scrape(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string; type: string | null }> {
  const answer = await fetch(url, { headers });
  return {
    status: answer.status,
    text: await answer.text(),
    type: answer.headers.get('content-type'),
  };
}
