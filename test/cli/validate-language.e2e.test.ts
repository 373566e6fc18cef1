/**
 * `validate` through the built binary, told in Dutch (`--language nl`) and in French (LANGUAGE):
 * each problem names the column as the sheet names it, says what to write there, and names a
 * product by its name; no API field name where the sheet has its own header.
 */
import { describe, expect, it } from 'vitest';

import { orderImporter } from '../helpers/cli.js';
import { DUTCH_ROWS, writeDutchSheet } from '../helpers/dutch-sheet.js';
import { put, tempDir } from '../helpers/files.js';

/** The lines that tell a row's problems (validate indents them by four). */
const problemLines = (stdout: string) => stdout.split('\n').filter((l) => l.startsWith('    '));

/** The environment of a test run, without a language of its own. */
const NO_LANGUAGE = { LANGUAGE: '', LC_ALL: '', LC_MESSAGES: '', LANG: '' };

describe('validate in the office’s language', () => {
  it('in Dutch, a Dutch sheet read through its mapping.json', async () => {
    const dir = await tempDir('validate-nl-e2e-');
    const lacking = [...(DUTCH_ROWS[0] ?? [])];
    // No house number, and an electrical inspection without its breaker boxes.
    [lacking[0], lacking[3], lacking[13], lacking[14]] = ['D-4', '', 'EPC|ELEC-1.1', ''];
    const { sheet } = await writeDutchSheet(dir, { rows: [...DUTCH_ROWS, lacking] });
    const finished = await orderImporter(['validate', sheet, '--language', 'nl'], NO_LANGUAGE)
      .finished;
    expect(finished.code, finished.stderr).toBe(2);
    const lines = problemLines(finished.stdout);
    expect(lines).toEqual([
      expect.stringContaining('Taal moet een van deze waarden zijn: "nl", "en", "fr", of een'),
      '    Huisnummer ontbreekt: vul het huisnummer (en busnummer) van het pand in.',
      '    Zekeringkasten ontbreekt: ELEC-1.1 (“Elektrische keuring woning bij verkoop (AREI)”) is een elektrische keuring; vul het aantal zekeringkasten in.',
    ]);
    expect(lines.join('\n')).not.toMatch(/address2|breaker_boxes|contact_language|categor/);
  });

  it('in French, a French sheet read through its mapping.json', async () => {
    const dir = await tempDir('validate-fr-e2e-');
    await put(
      dir,
      'mapping.json',
      JSON.stringify({
        columns: {
          'Votre référence': 'reference',
          'Type de bien': 'property_type',
          Rue: 'address1',
          Numéro: 'address2',
          'Code postal': 'postal_code',
          Commune: 'city',
          'Personne de contact': 'contact_name',
          Langue: 'contact_language',
          'E-mail contact': 'contact_email',
          'Pas de mail de facturation': 'no_inv_mail',
          'Facturer à': 'invoice_to',
          Propriétaire: 'is_contact_owner',
          Produits: 'order_products',
          'Tableaux électriques': 'breaker_boxes',
        },
        values: {
          contact_language: { français: 'fr' },
          invoice_to: { locataire: 'tenant' },
          is_contact_owner: { 'personne de contact': 'contact' },
          property_type: { appartement: 'Studio / Appartement' },
        },
      }),
    );
    const header =
      'Votre référence;Type de bien;Rue;Numéro;Code postal;Commune;Personne de contact;Langue;E-mail contact;Pas de mail de facturation;Facturer à;Propriétaire;Produits;Tableaux électriques';
    const rows = [
      'F-1;Appartement;Rue de la Loi;5;1000;Bruxelles;Françoise Lefèvre;français;francoise@example.be;oui;locataire;personne de contact;EPC;',
      'F-2;Appartement;Rue Haute;;1000;Bruxelles;Luc Dubois;français;luc@example.be;oui;locataire;personne de contact;ELEC-1.1;deux',
    ];
    const sheet = await put(dir, 'commandes.csv', [header, ...rows].join('\r\n') + '\r\n');
    const finished = await orderImporter(['validate', sheet], { ...NO_LANGUAGE, LANGUAGE: 'fr' })
      .finished;
    expect(finished.code, finished.stderr).toBe(2);
    const lines = problemLines(finished.stdout);
    expect(lines).toEqual([
      '    «\u202fTableaux électriques\u202f» doit être un nombre entier (valeur\u202f: «\u202fdeux\u202f»).',
      '    Il manque «\u202fNuméro\u202f»\u202f: indiquez le numéro (et la boîte) du bien.',
    ]);
    expect(lines.join('\n')).not.toMatch(/address2|breaker_boxes/);
  });
});
