import type { FunnelReport } from '../../shared/admin';
import type { WizardConfig } from '../../shared/config';
import type { FunnelCount } from '../store/funnel';

const DAY_MS = 86_400_000;

/** UTC day `YYYY-MM-DD` of a time in ms. */
export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The ms of a UTC day's start. */
const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** How many UTC days `from`–`to` holds, both included (0 when `to` is before `from`). */
export function daysIn(from: string, to: string): number {
  return Math.max(0, Math.round((dayStart(to) - dayStart(from)) / DAY_MS) + 1);
}

/**
 * The period of the same length as `from`–`to` that ends the day before `from` (the
 * funnel beside its previous period): 2026-11-01–2026-11-30 → 2026-10-02–2026-10-31.
 */
export function previousPeriod(from: string, to: string): { from: string; to: string } {
  const length = daysIn(from, to);
  const end = dayStart(from) - DAY_MS;
  return { from: utcDay(end - (length - 1) * DAY_MS), to: utcDay(end) };
}

/** Arranges funnel counts per day and step, with totals and step-to-step conversion, for the UTC days `from`–`to` (at most 366). */
export function funnelReport(config: WizardConfig, from: string, to: string, counts: readonly FunnelCount[]): FunnelReport {
  const steps = config.steps.map((step) => step.name);
  const days: FunnelReport['days'] = [];
  for (let ms = dayStart(from); ms <= dayStart(to) && days.length < 366; ms += DAY_MS) {
    days.push({ day: utcDay(ms), reached: steps.map(() => 0), submitted: 0, signInClicked: 0, ageEnded: 0 });
  }
  const byDay = new Map(days.map((day) => [day.day, day]));
  for (const count of counts) {
    const day = byDay.get(count.day);
    if (!day) continue;
    if (count.event === 'stepReached' && count.step < steps.length) day.reached[count.step]! += count.count;
    if (count.event === 'submitted') day.submitted += count.count;
    if (count.event === 'signInClicked') day.signInClicked += count.count;
    if (count.event === 'ageEnded') day.ageEnded += count.count;
  }
  const totals = {
    reached: steps.map((_, index) => days.reduce((sum, day) => sum + day.reached[index]!, 0)),
    submitted: days.reduce((sum, day) => sum + day.submitted, 0),
    signInClicked: days.reduce((sum, day) => sum + day.signInClicked, 0),
    ageEnded: days.reduce((sum, day) => sum + day.ageEnded, 0),
  };
  const rate = (part: number, whole: number) => (whole === 0 ? null : part / whole);
  const conversion = steps.slice(1).map((name, index) => ({ from: steps[index]!, to: name, rate: rate(totals.reached[index + 1]!, totals.reached[index]!) }));
  return { pageId: config.pageId, from, to, steps, days, totals, conversion };
}
