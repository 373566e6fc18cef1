#!/usr/bin/env node
// The built CLI lives in dist/ (made by `npm run build`, which `npm ci` runs through `prepare`).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write(
    'order-importer is not built yet: run `npm ci` (or `npm run build`) in its folder first.\n',
  );
  process.exit(1);
}
const { main } = await import(entry.href);
process.exit(await main(process.argv));
