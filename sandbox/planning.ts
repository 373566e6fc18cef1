/**
 * The inspection company's planners, imitated so that status sync can be rehearsed: `seconds`
 * after it was created an order gets, for each inspection, a date on a working day in the three
 * weeks that follow and an inspector, and the status `scheduled` — or, for about one order in
 * ten, `cancelled` with a `cancel_reason`. A scheduled order is `done` once the last of its visits
 * has passed on the sandbox's clock (./clock.ts), weeks later unless the clock is moved on. A
 * cancelled order keeps the dates and inspectors it was given: a client must not count them as
 * visits to come.
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
    visits.push(visit);
    return { ...inspection, date: apiDate(visit), inspector_name: pick(INSPECTORS, random()) };
  });
  // Done only when every visit is behind: never while one is still to come.
  const visited = visits.length > 0 && visits.every((visit) => nowMs > visit);
  const status = cancelled ? 'cancelled' : visited ? 'done' : 'scheduled';
  return { ...order, status, cancelReason: cancelled ? reason : null, inspections };
}

/** A time (ms since the epoch) on a working day after `fromMs`, in working hours. */
function visitTime(fromMs: number, random: () => number): number {
  let left = 1 + Math.floor(random() * MOST_WORKING_DAYS);
  let day = Math.floor(fromMs / DAY_MS);
  while (left > 0) {
    day += 1;
    const weekday = new Date(day * DAY_MS).getUTCDay();
    if (weekday !== 0 && weekday !== 6) left -= 1;
  }
  const minute = FIRST_MINUTE + 30 * Math.floor(random() * HALF_HOURS);
  return day * DAY_MS + minute * 60_000;
}

/** `YYYY-MM-DD HH:MM:SS`, the API's zone-less shape (the sandbox's visits are in UTC). */
function apiDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

function pick<T>(list: readonly T[], draw: number): T {
  const item = list[Math.floor(draw * list.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}
