/**
 * Vitest's global setup for the whole run: stops it at once, in plain words, when the machine
 * lacks what the tests about to run need (scripts/test-needs.ts), rather than letting them fail
 * one by one. It installs nothing.
 */
import type { TestProject } from 'vitest/node';

import { testNeedsMissing, thisMachine } from '../../scripts/test-needs.js';

/** The unit tests read workbooks written by openpyxl; the others need a browser and Redis too. */
const UNIT_NEEDS = ['python3-openpyxl'];

export default function checkMachineNeeds(project: TestProject): void {
  const unitOnly = project.vitest.projects.every((p) => p.name === 'unit');
  const missing = testNeedsMissing(thisMachine(), unitOnly ? UNIT_NEEDS : undefined);
  if (missing !== undefined) throw new Error(missing);
}
