/**
 * Vitest's global setup for the whole run: gets what the tests about to run need from the machine
 * when it is missing (scripts/test-needs.ts: Debian's packages, with a line saying why), or stops
 * the run at once, in plain words, saying what to install, rather than letting tests fail one by
 * one. On a machine that has everything it only looks.
 */
import type { TestProject } from 'vitest/node';

import { provideTestNeeds, thisMachine, UNIT_NEEDS } from '../../scripts/test-needs.js';

// The unit tests read workbooks written by openpyxl and check deploy/'s files with their tools;
// the others need a browser and Redis too.

export default function provideMachineNeeds(project: TestProject): void {
  const unitOnly = project.vitest.projects.every((p) => p.name === 'unit');
  if (provideTestNeeds(thisMachine(), unitOnly ? UNIT_NEEDS : undefined) !== 0)
    throw new Error('the machine lacks what the tests need (said above)');
}
