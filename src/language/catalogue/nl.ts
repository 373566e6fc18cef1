/** Every text a person reads in Dutch (Belgium): opdracht, keuring, keurder, lijst, rij, bijlage. */
import { cli } from './nl/cli.js';
import { common } from './nl/common.js';
import { dashboard } from './nl/dashboard.js';
import { email } from './nl/email.js';
import { rows } from './nl/rows.js';
import { sheets } from './nl/sheets.js';

export const nl = { ...common, ...cli, ...sheets, ...rows, ...email, ...dashboard };
