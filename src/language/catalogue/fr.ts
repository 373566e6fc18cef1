/** Every text a person reads in French (Belgium): commande, contrôle, technicien, liste, ligne, pièce jointe, PEB. */
import { cli } from './fr/cli.js';
import { common } from './fr/common.js';
import { dashboard } from './fr/dashboard.js';
import { email } from './fr/email.js';
import { rows } from './fr/rows.js';
import { sheets } from './fr/sheets.js';

export const fr = { ...common, ...cli, ...sheets, ...rows, ...email, ...dashboard };
