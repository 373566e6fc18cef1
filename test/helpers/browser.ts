import { existsSync } from 'node:fs';

import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium, or CHROMIUM_PATH; `npm test` installs it first when it can (scripts/). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Headless, as root in a container, with nothing reaching out to Google's services. */
export const CHROMIUM_FLAGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Fails (never skips) when there is no Chromium: a browser test that cannot run is not passed. */
export function assertChromium(): void {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `no Chromium at ${CHROMIUM}: apt-get install chromium (Debian), or set CHROMIUM_PATH`,
    );
  }
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_FLAGS] });
}
