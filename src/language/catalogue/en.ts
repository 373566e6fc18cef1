/** Every text a person reads in English: the keys every language has (docs/design.md "Language"). */
import { cli } from './en/cli.js';
import { common } from './en/common.js';
import { dashboard } from './en/dashboard.js';
import { email } from './en/email.js';
import { rows } from './en/rows.js';
import { sheets } from './en/sheets.js';

export const en = { ...common, ...cli, ...sheets, ...rows, ...email, ...dashboard };
