/**
 * The inspection company's planners, imitated so that status sync can be rehearsed: `seconds`
 * after it was created an order gets, for each inspection, a date on a working day in the three
 * weeks that follow and an inspector, and the status `scheduled` — or, for about one order in
 * ten, `cancelled` with a `cancel_reason`. A date is the wall-clock time in Brussels, where the
 * planners are (the API's dates carry no zone; the importer reads them so). A scheduled order is
 * `done` once the last of its visits has passed on the sandbox's clock (./clock.ts), weeks later
 * unless the clock is moved on. A cancelled order keeps the dates and inspectors it was given: a
 * client must not count them as visits to come.
 *
 * Nothing is stored and no timer runs: the plan is worked out whenever the order is read, from
 * its creation time, the sandbox's seed, the order's id and the sandbox's clock. So it is the
 * same after a restart, and the same for the same seed.
 */
import { DAY_MS } from './clock.js';
import { mix, mulberry32 } from './random.js';
import type { StoredOrder } from './store.js';

export interface Planning {
  /** Seconds from an order's creation to its planning; 0: never planned. */
  seconds: number;
  seed: number;
}

/** The status the API documents for a new order; the only one a stored order has. */
const TO_SCHEDULE = 'to schedule';

/** Names a client must show and write as they are: several are far from ASCII. */
export const INSPECTORS = [
  'Zoë Brontë',
  'Jan Peeters',
  'José Núñez',
  'Sofie Janssens',
  'Łukasz Żak',
  'Pieter De Smet',
  'Anaïs Dubé',
  'Mohamed El Amrani',
  'Émilie Lefèvre',
  'Lien Vermeulen',
  'Ayşe Yılmaz',
  'Kevin Claes',
] as const;

export const CANCEL_REASONS = [
  'The sale fell through: the owner no longer needs the certificates.',
  'Ordered twice by the agency; this order is the duplicate.',
  'The owner already has a valid certificate.',
  'Contact person unreachable after three attempts.',
  'Le propriétaire a retiré le bien de la vente.',
  'Eigenaar wenst geen keuring meer.',
] as const;

const CANCELLED_SHARE = 0.1;
/** Visits are planned 1 to 15 working days after the order is. */
const MOST_WORKING_DAYS = 15;
/** From 08:00 to 16:30, on the half hour. */
const FIRST_MINUTE = 8 * 60;
const HALF_HOURS = 18;

/** The order as it reads at `nowMs` (ms since the epoch, on the sandbox's clock). */
export function plannedOrder(order: StoredOrder, planning: Planning, nowMs: number): StoredOrder {
  const delayMs = planning.seconds * 1000;
  const created = Date.parse(order.createdAt);
  if (delayMs <= 0 || order.status !== TO_SCHEDULE || !(nowMs >= created + delayMs)) return order;
  const random = mulberry32(mix(planning.seed, order.id));
  // Every draw is made whatever the outcome, so that one choice never shifts the others.
  const cancelled = random() < CANCELLED_SHARE;
  const reason = pick(CANCEL_REASONS, random());
  const visits: number[] = [];
  const inspections = order.inspections.map((inspection) => {
    const visit = visitTime(created + delayMs, random);
    visits.push(visit.at);
    return { ...inspection, date: apiDate(visit.wall), inspector_name: pick(INSPECTORS, random()) };
  });
  // Done only when every visit is behind: never while one is still to come.
  const visited = visits.length > 0 && visits.every((visit) => nowMs > visit);
  const status = cancelled ? 'cancelled' : visited ? 'done' : 'scheduled';
  return { ...order, status, cancelReason: cancelled ? reason : null, inspections };
}

/**
 * A visit on a working day after `fromMs`, in working hours in Brussels, where the planners are:
 * its time on the wall clock there (`wall`, its fields as if it were UTC) and the moment it is.
 */
function visitTime(fromMs: number, random: () => number): { wall: number; at: number } {
  let left = 1 + Math.floor(random() * MOST_WORKING_DAYS);
  let day = Math.floor(wallClock(fromMs) / DAY_MS);
  while (left > 0) {
    day += 1;
    const weekday = new Date(day * DAY_MS).getUTCDay();
    if (weekday !== 0 && weekday !== 6) left -= 1;
  }
  const minute = FIRST_MINUTE + 30 * Math.floor(random() * HALF_HOURS);
  const wall = day * DAY_MS + minute * 60_000;
  return { wall, at: momentOf(wall) };
}

/**
 * `YYYY-MM-DD HH:MM:SS`, the API's zone-less shape: the wall-clock time in Brussels (a client
 * reading it as UTC would see each visit done an hour or two before it is).
 */
function apiDate(wall: number): string {
  return new Date(wall).toISOString().slice(0, 19).replace('T', ' ');
}

/** Read for its fields only: a formatter holds no state between calls. */
const BRUSSELS = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Brussels',
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** The wall clock in Brussels at `ms`, its fields as if it were UTC (whole seconds). */
function wallClock(ms: number): number {
  const parts = BRUSSELS.formatToParts(ms);
  const field = (type: Intl.DateTimeFormatPartTypes) =>
    Number(parts.find((part) => part.type === type)?.value ?? Number.NaN);
  return Date.UTC(
    field('year'),
    field('month') - 1,
    field('day'),
    field('hour'),
    field('minute'),
    field('second'),
  );
}

/**
 * The moment Brussels' wall clock reads `wall`: its offset is looked up twice, at the guess and
 * again where that lands (a visit is never in the night hour a clock change skips or repeats).
 */
function momentOf(wall: number): number {
  const offsetAt = (ms: number) => wallClock(ms) - Math.floor(ms / 1000) * 1000;
  return wall - offsetAt(wall - offsetAt(wall));
}

function pick<T>(list: readonly T[], draw: number): T {
  const item = list[Math.floor(draw * list.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}
