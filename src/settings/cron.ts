/**
 * A cron pattern checked when the settings are read, by the parser BullMQ itself schedules with
 * (cron-parser): a pattern it would refuse is then found before Redis, the API or a worker is
 * started, not at the first schedule set. Five fields, or six with seconds first, as the help
 * says: the parser alone would also take four, or a macro such as `@daily`.
 */
import { CronExpressionParser } from 'cron-parser';

/** Why no schedule can run on `pattern`, or undefined when one can. */
export function cronProblem(pattern: string): string | undefined {
  const fields = pattern.trim().split(/\s+/).filter(Boolean).length;
  if (fields < 5 || fields > 6) return `it has ${fields} field${fields === 1 ? '' : 's'}`;
  try {
    CronExpressionParser.parse(pattern);
    return undefined;
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    return error.message;
  }
}
