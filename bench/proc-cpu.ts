/**
 * The CPU a child process used, from outside it: Linux adds a child's user and system time to its
 * parent's `cutime` and `cstime` (/proc/self/stat) once the parent has reaped it, which Node does
 * as soon as it exits. The difference over a child's life is that child's CPU, provided no other
 * child of this process ended meanwhile. Ticks of 10 ms (USER_HZ is 100 on Linux). And a running
 * process's CPU and resident memory, read from its own /proc entry.
 */
import { readFile } from 'node:fs/promises';

const MS_PER_TICK = 10;

/** The CPU (user and system, ms) of every child this process has reaped so far. */
export async function reapedChildrenCpuMs(): Promise<number> {
  const stat = await readFile('/proc/self/stat', 'utf8');
  // The command's name, in parentheses, may hold spaces: fields are counted after its end.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // cutime and cstime are fields 16 and 17 of the whole line; 14 and 15 after the name.
  const cutime = Number(fields[13]);
  const cstime = Number(fields[14]);
  if (!Number.isFinite(cutime) || !Number.isFinite(cstime)) {
    throw new Error(`cannot read the children's CPU from /proc/self/stat: ${stat}`);
  }
  return (cutime + cstime) * MS_PER_TICK;
}

/** The CPU (user and system, ms) a running process has used so far, from /proc/<pid>/stat. */
export async function processCpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the whole line; 12 and 13 after the name.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) {
    throw new Error(`cannot read the CPU of process ${pid} from /proc: ${stat}`);
  }
  return (utime + stime) * MS_PER_TICK;
}

/** The resident memory of a running process now, in bytes (VmRSS of /proc/<pid>/status). */
export async function processRssBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+) kB/m.exec(status);
  if (!match?.[1]) throw new Error(`process ${pid} has no VmRSS`);
  return Number(match[1]) * 1024;
}
