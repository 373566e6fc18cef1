import { pino } from 'pino';
import { describe, expect, it } from 'vitest';

import { LostLocks, Outage, reasonText } from '../src/outage.js';
import { wordsFor } from '../src/language/words.js';

function harness(withSay = true) {
  let clock = 0;
  const said: string[] = [];
  const logs: Array<{ level: number; msg: string; [key: string]: unknown }> = [];
  const logger = pino(
    { level: 'debug' },
    { write: (line: string) => logs.push(JSON.parse(line) as (typeof logs)[number]) },
  );
  const outage = new Outage({
    subject: 'Redis at redis://127.0.0.1:6379',
    meanwhile: 'waiting for it',
    ...(withSay && { announce: (line: string) => said.push(line) }),
    logger,
    now: () => clock,
  });
  return {
    outage,
    said,
    logs,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

describe('Outage', () => {
  it('says one line when it starts and one when it ends, however many failures between', () => {
    const h = harness();
    for (let i = 0; i < 50; i++) {
      h.outage.failed(new Error('connect ECONNREFUSED 127.0.0.1:6379'));
      h.advance(100);
    }
    h.outage.recovered();
    expect(h.said).toEqual([
      'Redis at redis://127.0.0.1:6379 does not answer (connect ECONNREFUSED 127.0.0.1:6379): waiting for it.',
      'Redis at redis://127.0.0.1:6379 answers now, after 5 s.',
    ]);
  });

  it('logs what it said in plain words as detail only (debug), never a stack', () => {
    const h = harness();
    h.outage.failed(new Error('read ECONNRESET'));
    h.outage.failed(new Error('connect ECONNREFUSED'));
    h.advance(2500);
    h.outage.recovered();
    expect(h.logs.map((l) => [l.level, l.msg, l.reason])).toEqual([
      [20, 'Redis at redis://127.0.0.1:6379 does not answer', 'read ECONNRESET'],
      [20, 'Redis at redis://127.0.0.1:6379 still does not answer', 'connect ECONNREFUSED'],
      [20, 'Redis at redis://127.0.0.1:6379 answers now', undefined],
    ]);
    expect(h.logs[2]).toMatchObject({ lastedMs: 2500, failures: 2 });
    // Said in plain words: the JSON log keeps them as detail, a terminal's logger leaves them out.
    expect([h.logs[0]?.told, h.logs[2]?.told]).toEqual([true, true]);
    expect(JSON.stringify(h.logs)).not.toMatch(/stack|"err"/);
  });

  it('says nothing when it answers without having been away', () => {
    const h = harness();
    h.outage.recovered();
    expect(h.said).toEqual([]);
    expect(h.logs).toEqual([]);
    expect(h.outage.since).toBeUndefined();
    expect(h.outage.lasted()).toBe(0);
  });

  it('tells a second outage again, and knows how long the one under way lasts', () => {
    const h = harness();
    h.outage.failed('first');
    h.outage.recovered();
    h.advance(1000);
    h.outage.failed('second');
    expect(h.outage.since).toBe(1000);
    h.advance(150_000);
    expect(h.outage.lasted()).toBe(150_000);
    h.outage.recovered();
    expect(h.said).toHaveLength(4);
    expect(h.said[3]).toBe('Redis at redis://127.0.0.1:6379 answers now, after 2 min 30 s.');
  });

  it('only logs when no one is there to be told', () => {
    const h = harness(false);
    h.outage.failed(new Error('gone'));
    h.outage.recovered();
    expect(h.said).toEqual([]);
    expect(h.logs.map((l) => [l.level, l.told])).toEqual([
      [40, false],
      [30, false],
    ]);
  });
});

describe('an outage heard by several clients', () => {
  it('starts with the first that fails and ends once each of them answers again', () => {
    const h = harness();
    const [gent, brugge] = [{}, {}];
    h.outage.failed('refused', gent);
    h.outage.failed('refused', brugge);
    h.outage.recovered(gent);
    expect(h.said).toHaveLength(1);
    h.outage.recovered(brugge);
    h.outage.recovered(gent);
    expect(h.said).toHaveLength(2);
    expect(h.said[1]).toMatch(/answers now/);
  });
});

describe('LostLocks', () => {
  it('says the jobs whose locks were lost once, each job counted once, in the words given', () => {
    const { said, logs } = harness();
    const logger = pino(
      { level: 'debug' },
      { write: (line: string) => logs.push(JSON.parse(line) as (typeof logs)[number]) },
    );
    const locks = new LostLocks({ logger, words: wordsFor('en'), announce: (l) => said.push(l) });
    for (const job of ['s.r1', 's.r2', 's.r1', 's.r3', 's.r2']) locks.lost(job, 'Missing lock');
    locks.flush();
    locks.flush();
    expect(said).toEqual([
      "3 jobs' locks were lost while Redis was away: they are taken over and resume from the last recorded step.",
    ]);
    expect(logs.filter((l) => l.level > 20)).toEqual([]);
  });
});

describe('reasonText', () => {
  it.each([
    [new Error('connect ECONNREFUSED 127.0.0.1:6379'), 'connect ECONNREFUSED 127.0.0.1:6379'],
    [new Error('two\n  lines'), 'two lines'],
    ['plain words', 'plain words'],
    [new Error(''), 'no reason given'],
    [undefined, 'undefined'],
  ])('%s', (reason, text) => {
    expect(reasonText(reason)).toBe(text);
  });
});
