/** What `worker`, `ledger rebuild` and the monitoring say, in Dutch, French and English. */
import pino from 'pino';
import { describe, expect, it } from 'vitest';

import { startMonitoring } from '../../src/app/monitoring.js';
import { rebuiltLine, skippedLine, unkeyedLine } from '../../src/cli/commands/ledger-lines.js';
import { UserError } from '../../src/errors.js';
import { wordsFor } from '../../src/language/words.js';
import { Metrics } from '../../src/metrics/metrics.js';
import type { Settings } from '../../src/settings/load.js';

const counts = {
  reports: 1,
  unreported: 2,
  created: 1234,
  unknown: 1,
  kept: 0,
  keyless: 3,
  rekeyed: 1,
  unkeyed: [],
};

describe("ledger rebuild's line of a connection", () => {
  it('in English as before', () => {
    expect(
      rebuiltLine(
        'default',
        { ...counts, created: 6, unknown: 0, keyless: 0, rekeyed: 0 },
        wordsFor('en'),
      ),
    ).toBe(
      'Connection "default": the duplicates ledger rebuilt from 1 report and 2 sheets cut short: 6 orders and 0 creates of unknown outcome written, 0 already there.',
    );
  });

  it('in Dutch, with what was keyed again and what could not be filed', () => {
    expect(rebuiltLine('gent', counts, wordsFor('nl'))).toBe(
      'Verbinding “gent”: het register van dubbels is opnieuw opgebouwd uit 1 rapport en 2 onderbroken lijsten. Ingeschreven: 1.234 opdrachten en 1 verstuurde opdracht waarvan niet bekend is of ze aangemaakt werd; al aanwezig: 0. 1 opdracht van een rij zonder referentie opnieuw herkend aan de hand van de lijst op schijf. 2 opdrachten van rijen zonder referentie in een rapport konden niet ingeschreven worden (de sleutel is nergens bewaard en er is geen lijst om hem uit af te leiden): die rijen worden niet herkend als al geïmporteerd; als u ze opnieuw importeert, kunnen ze een tweede keer aangemaakt worden.',
    );
  });

  it('in French', () => {
    expect(rebuiltLine('namur', { ...counts, keyless: 1 }, wordsFor('fr'))).toBe(
      'Connexion «\u202fnamur\u202f»\u202f: le registre des doublons a été reconstruit à partir de 1 rapport et de 2 importations interrompues\u202f: 1\u202f234 commandes et 1 commande à l’issue inconnue inscrites\u202f; déjà présentes\u202f: 0. 1 commande d’une ligne sans référence a été identifiée grâce à sa liste, conservée sur le disque.',
    );
  });
});

describe("the monitoring's line", () => {
  it('in French', async () => {
    const said: string[] = [];
    const settings = { language: 'fr', metricsHost: '127.0.0.1', apiWaitS: 1 } as Settings;
    const monitoring = await startMonitoring(settings, pino({ enabled: false }), {
      metrics: new Metrics({ defaultMetrics: false }),
      port: 0,
      announce: (line) => said.push(line),
    });
    await monitoring.close();
    expect(said).toEqual([
      expect.stringMatching(
        /^Métriques\u202f: http:\/\/127\.0\.0\.1:\d+\/metrics {2}\(santé\u202f: \S+\/healthz, \S+\/readyz\)$/,
      ),
    ]);
  });
});

describe('what ledger rebuild passed over', () => {
  const garbage = { kind: 'creates-lines', file: '/d/creates/S1.ndjson', count: 2 } as const;
  const unkeyed = { count: 1, sheetId: 'S1', dir: '/r/S1', why: undefined };

  it('in English as before', () => {
    const en = wordsFor('en');
    expect(skippedLine(garbage, en)).toBe('Skipped: /d/creates/S1.ndjson: 2 lines not understood.');
    expect(skippedLine({ kind: 'link', path: '/r/x' }, en)).toBe(
      'Skipped: /r/x is a link: not followed.',
    );
    expect(unkeyedLine({ ...unkeyed, count: 2 }, en)).toBe(
      '2 rows of sheet S1 (/r/S1) could not be keyed: no reason known; re-importing it could create them again.',
    );
  });

  it('in Dutch and French, a report folder’s error in their words', () => {
    const error = new UserError('report-folder.unusable', '/r/x has no report.csv.', {
      variant: 'no-report',
      values: { dir: '/r/x' },
    });
    expect(skippedLine({ kind: 'report', error }, wordsFor('nl'))).toBe(
      'Overgeslagen: /r/x bevat geen report.csv.',
    );
    expect(skippedLine(garbage, wordsFor('fr'))).toBe(
      'Ignoré\u202f: /d/creates/S1.ndjson\u202f: 2 lignes illisibles.',
    );
    expect(unkeyedLine(unkeyed, wordsFor('nl'))).toBe(
      '1 rij van lijst S1 (/r/S1) kon niet herkend worden: reden onbekend; als u de lijst opnieuw importeert, kan die rij een tweede keer aangemaakt worden.',
    );
  });
});
