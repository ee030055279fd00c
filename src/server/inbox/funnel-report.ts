import type { FunnelReport } from '../../shared/admin';
import type { WizardConfig } from '../../shared/config';
import type { FunnelCount } from '../store/funnel';

/** UTC day `YYYY-MM-DD` of a time in ms. */
export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Arranges funnel counts per day and step, with step-to-step conversion. */
export function funnelReport(
  config: WizardConfig,
  from: string,
  to: string,
  counts: readonly FunnelCount[],
): FunnelReport {
  const steps = config.steps.map((step) => step.name);
  const days: FunnelReport['days'] = [];
  for (let ms = Date.parse(`${from}T00:00:00Z`); ms <= Date.parse(`${to}T00:00:00Z`) && days.length < 366; ms += 86_400_000) {
    days.push({ day: utcDay(ms), reached: steps.map(() => 0), submitted: 0, signInClicked: 0 });
  }
  const byDay = new Map(days.map((day) => [day.day, day]));
  for (const count of counts) {
    const day = byDay.get(count.day);
    if (!day) continue;
    if (count.event === 'stepReached' && count.step < steps.length) day.reached[count.step]! += count.count;
    if (count.event === 'submitted') day.submitted += count.count;
    if (count.event === 'signInClicked') day.signInClicked += count.count;
  }
  const totals = {
    reached: steps.map((_, index) => days.reduce((sum, day) => sum + day.reached[index]!, 0)),
    submitted: days.reduce((sum, day) => sum + day.submitted, 0),
    signInClicked: days.reduce((sum, day) => sum + day.signInClicked, 0),
  };
  const rate = (part: number, whole: number) => (whole === 0 ? null : part / whole);
  const conversion = steps.slice(1).map((name, index) => ({ from: steps[index]!, to: name, rate: rate(totals.reached[index + 1]!, totals.reached[index]!) }));
  return { pageId: config.pageId, steps, days, totals, conversion };
}
