#!/usr/bin/env node
// The image's health probe (slim images have no curl): exit 0 when the URL answers 2xx within
// the time given, 1 otherwise, with the reason on stderr for `docker inspect`. Without a URL it
// asks the dashboard's /healthz on DASHBOARD_PORT, where `watch` serves it. `--listening` takes
// any answer below 500 (a 401 for want of a token included): for a server, like the sandbox,
// whose routes all want one.
const args = process.argv.slice(2);
const listening = args.includes('--listening');
const url =
  args.find((a) => !a.startsWith('--')) ??
  `http://127.0.0.1:${process.env.DASHBOARD_PORT || '3000'}/healthz`;
const timeoutMs = Number(process.env.HEALTHCHECK_TIMEOUT_MS || '5000');

try {
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  const body = (await response.text()).slice(0, 500);
  if (response.ok || (listening && response.status < 500)) process.exit(0);
  process.stderr.write(`${url} answered ${response.status}: ${body}\n`);
} catch (error) {
  // Refused, reset or timed out: the process is not serving (yet); say why and fail the probe.
  process.stderr.write(
    `${url} did not answer: ${error instanceof Error ? error.message : String(error)}\n`,
  );
}
process.exit(1);
