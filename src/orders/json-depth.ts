/**
 * An order or a mapping is a few levels deep (the order, its products, a product); JSON from
 * outside (a sheet's row, a mapping file) nested deeper than this is neither, and recursive code
 * further on (zod, JSON.stringify, a walk) must never see it: it would overflow the stack.
 */
export const MAX_NESTING = 64;

/**
 * Whether a parsed JSON value holds objects or lists more than `limit` levels deep (the value
 * itself is level 1). Walked with a stack of its own, not by recursion, so a line nested 400,000
 * levels costs no more than `limit` levels of it; an order of plain values costs one look per key.
 */
export function nestsDeeperThan(value: object, limit: number): boolean {
  const pending: object[] = [value];
  const depths: number[] = [1];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const depth = depths.pop() ?? 1;
    if (depth > limit) return true;
    const values: unknown[] = Array.isArray(next) ? next : Object.values(next);
    for (const inner of values) {
      if (typeof inner === 'object' && inner !== null) {
        pending.push(inner);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}
