import type { RunningSandbox, SandboxDeps } from '../../sandbox/server.js';
import { startSandbox } from '../../sandbox/server.js';
import type { SandboxOptionsInput } from '../../sandbox/options.js';
import { DEMO_TOKEN } from '../../sandbox/tokens.js';
import { ApiClient } from './api.js';

export interface TestSandbox extends RunningSandbox {
  /** A client with the first token. */
  api: ApiClient;
}

/** An in-memory sandbox on a free port; close it in afterAll/afterEach. */
export async function testSandbox(
  input: SandboxOptionsInput = {},
  deps: SandboxDeps = {},
): Promise<TestSandbox> {
  const sandbox = await startSandbox({ port: 0, ...input }, deps);
  const token = sandbox.tokens[0]?.token ?? DEMO_TOKEN.token;
  return { ...sandbox, api: new ApiClient(sandbox.url, token) };
}
