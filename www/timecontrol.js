// @ts-check
// A game's timing in words and figures, the same wherever it is shown
// (Play now, challenges, rooms by link, the games in play): a live clock
// `{initial, increment}` in seconds, or days per move for a
// correspondence game (docs/protocol.md, "Correspondence").

import { t, tn } from './i18n.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * @typedef {{ clock?: { initial: number, increment: number } | null, days?: number | null }} Timing
 */

/**
 * The time control as a key: "3+2" for a live clock, "3d" for three days a
 * move, "" for none (Play now's `data-tc`).
 * @param {Timing} timing
 */
export function timeControl({ clock, days }) {
  if (clock) return `${clock.initial / 60}+${clock.increment}`;
  return days ? `${days}d` : '';
}

/**
 * The time control as shown: "3+2", "3 days" (a day count in words in
 * every language), or "–" for none.
 * @param {Timing} timing
 */
export function timingLabel({ clock, days }) {
  if (clock) return timeControl({ clock });
  return days ? tn('time.days', days) : '–';
}

/**
 * A correspondence clock's time left: days and hours from a day, hours and
 * minutes from an hour, then minutes and seconds.
 * @param {number} ms
 */
export function daysClockText(ms) {
  const left = Math.max(0, ms);
  if (left >= DAY_MS) return t('time.daysHours', { days: Math.floor(left / DAY_MS), hours: Math.floor((left % DAY_MS) / HOUR_MS) });
  if (left >= HOUR_MS) return t('time.hoursMinutes', { hours: Math.floor(left / HOUR_MS), minutes: Math.floor((left % HOUR_MS) / 60_000) });
  const seconds = Math.ceil(left / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
