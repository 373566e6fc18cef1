/** A bearer token and the organisation it acts for. */
export interface SandboxToken {
  token: string;
  org: string;
}

export const DEMO_TOKEN: SandboxToken = { token: 'sandbox-demo-token', org: 'demo' };

/**
 * Reads `TOKEN[:ORG]` items (from repeated `--token` flags or a comma-separated
 * SANDBOX_TOKENS); a token without an organisation gets one of its own.
 */
export function parseTokens(items: readonly string[]): SandboxToken[] {
  const tokens: SandboxToken[] = [];
  for (const raw of items.flatMap((item) => item.split(','))) {
    const item = raw.trim();
    if (item === '') continue;
    const colon = item.indexOf(':');
    const token = colon === -1 ? item : item.slice(0, colon).trim();
    const org = colon === -1 ? `org-${token}` : item.slice(colon + 1).trim();
    if (!/^[\x21-\x7e]+$/.test(token)) {
      throw new Error(`Sandbox token "${token}" must be printable ASCII without spaces.`);
    }
    if (org === '') throw new Error(`Sandbox token "${token}" names an empty organisation.`);
    if (tokens.some((t) => t.token === token)) {
      throw new Error(`Sandbox token "${token}" is given twice.`);
    }
    tokens.push({ token, org });
  }
  return tokens;
}
