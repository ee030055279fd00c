import { useEffect, useRef, useState } from 'react';
import { Bar, BarChart, CartesianGrid, LabelList, Legend, ResponsiveContainer, XAxis, YAxis } from 'recharts';
import { queryString } from './api';
import { useFunnel } from './features/funnel/api';
import { formatNumber, formatShare } from './format';
import { Options, usePageChoices } from './options';
import { StackTableHead } from './stack-table';

const DAY_MS = 86_400_000;
/** The period presets, in days up to today (UTC). */
const PRESETS = [7, 30, 90] as const;
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** The `days` days up to today, UTC, both included. */
const lastDays = (days: number) => ({ from: utcDay(Date.now() - (days - 1) * DAY_MS), to: utcDay(Date.now()) });
const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** The previous period's bars: 4.8:1 on white, over WCAG 1.4.11's 3:1 for graphics (#94a3b8 was 2.6:1). */
const PREVIOUS_FILL = '#64748b';

/** The funnel's choices in the address (`?pageId=&from=&to=`), the last 30 days when absent. */
function periodInAddress(): { pageId?: string; from: string; to: string } {
  const params = new URLSearchParams(window.location.search);
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const pageId = params.get('pageId') || undefined;
  return { ...(pageId ? { pageId } : {}), ...(DAY.test(from) && DAY.test(to) ? { from, to } : lastDays(30)) };
}

/** One bar of the funnel: a step, how many reached it in the period and in the one before. */
interface FunnelStep {
  name: string;
  count: number;
  previous: number | undefined;
}

/** `+12`, `−3`, `0`: a change as a signed number. */
const signed = (change: number) => (change > 0 ? `+${formatNumber(change)}` : change < 0 ? `−${formatNumber(-change)}` : '0');

/** The drop-off from a step of `before` applicants: `3 (30%)`; `none (2 more)` when more reached the later step; `—` for the first step. */
function dropOff(drop: number | undefined, before: number) {
  if (drop === undefined) return '—';
  if (drop < 0) return `none (${formatNumber(-drop)} more)`;
  return before > 0 ? `${formatNumber(drop)} (${formatShare(drop / before)})` : formatNumber(drop);
}

/**
 * The funnel: for a chosen period (presets of the last 7, 30 or 90 days, or
 * any range of UTC days, kept in the address), each step as a horizontal bar — the applicants who
 * reached it — beside the previous period of the same length, then submitted and clicked through
 * to sign-up; and a table with the count reached, its share of the first step, the drop-off from
 * the step before (number and percent) and the previous period, for screen readers and keyboards.
 * Drawn with Recharts (this module is a lazy chunk of the inbox), read with TanStack Query.
 */
export default function FunnelView() {
  const { choices: pages, failed: pagesFailed } = usePageChoices();
  const [period, setPeriod] = useState(periodInAddress);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The first page until the reader chooses one.
  const pageId = period.pageId ?? pages[0]?.value;
  const preset = PRESETS.find((days) => {
    const range = lastDays(days);
    return range.from === period.from && range.to === period.to;
  });

  useEffect(() => headingRef.current?.focus(), []);
  useEffect(() => window.history.replaceState(null, '', `/admin/funnel${queryString(period)}`), [period]);

  const funnel = useFunnel(pageId, period);
  const report = funnel.data;
  const steps: FunnelStep[] = report
    ? [
        ...report.steps.map((name, index) => ({ name, count: report.totals.reached[index] ?? 0, previous: report.previous?.totals.reached[index] })),
        { name: 'Submitted', count: report.totals.submitted, previous: report.previous?.totals.submitted },
        { name: 'Sign-up clicks', count: report.totals.signInClicked, previous: report.previous?.totals.signInClicked },
        // Visits the age screen ended: shown once there are any (a page without the screen has none).
        ...(report.totals.ageEnded > 0 || (report.previous?.totals.ageEnded ?? 0) > 0
          ? [{ name: 'Ended by the age screen', count: report.totals.ageEnded, previous: report.previous?.totals.ageEnded }]
          : []),
      ]
    : [];
  const first = steps[0]?.count ?? 0;
  const previousLabel = report?.previous ? `Previous period (${report.previous.from} to ${report.previous.to})` : 'Previous period';
  const columns = ['Step', 'Reached', 'Share of the first step', 'Drop-off from the step before', previousLabel, 'Change'] as const;
  const error = funnel.isError
    ? funnel.error.message
    : period.from > period.to
      ? 'The period ends before it starts.'
      : pagesFailed
        ? 'The pages could not be loaded.'
        : undefined;

  return (
    <>
      <h1 ref={headingRef} tabIndex={-1}>
        Funnel
      </h1>
      <form className="filters" aria-label="Funnel period" onSubmit={(event) => event.preventDefault()}>
        <label>
          Page
          <select value={pageId ?? ''} onChange={(event) => setPeriod((current) => ({ ...current, pageId: event.target.value }))}>
            <Options choices={pages} />
          </select>
        </label>
        <label>
          Period
          <select
            value={preset === undefined ? 'custom' : String(preset)}
            onChange={(event) => {
              const days = Number(event.target.value);
              if (days > 0) setPeriod((current) => ({ ...current, ...lastDays(days) }));
            }}
          >
            {PRESETS.map((days) => (
              <option key={days} value={days}>
                Last {days} days
              </option>
            ))}
            <option value="custom">Custom</option>
          </select>
        </label>
        <label>
          From
          <input
            type="date"
            value={period.from}
            max={period.to}
            onChange={(event) => event.target.value && setPeriod((current) => ({ ...current, from: event.target.value }))}
          />
        </label>
        <label>
          To
          <input
            type="date"
            value={period.to}
            min={period.from}
            onChange={(event) => event.target.value && setPeriod((current) => ({ ...current, to: event.target.value }))}
          />
        </label>
      </form>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      {/* An error shows alone: never the chart and table of an earlier period under it. */}
      {report && !error ? (
        <div aria-busy={funnel.isFetching}>
          <p className="meta" role="status">
            {report.from} to {report.to} (UTC), beside {report.previous ? `${report.previous.from} to ${report.previous.to}` : 'the period before'}.
          </p>
          {first === 0 && steps.every((step) => step.count === 0) ? <p>No applicant reached the page in this period.</p> : null}
          <div className="chart" aria-hidden="true">
            <ResponsiveContainer width="100%" height={steps.length * 56 + 48}>
              <BarChart layout="vertical" data={steps} margin={{ top: 4, right: 56, bottom: 4, left: 4 }} accessibilityLayer={false} barGap={2}>
                <CartesianGrid strokeDasharray="3 3" horizontal={false} />
                <XAxis type="number" allowDecimals={false} />
                <YAxis type="category" dataKey="name" width={160} interval={0} tickLine={false} />
                {/* The legend's words in the text colour (WCAG 1.4.3), not in their bars' colours; the swatch keeps the bar's. */}
                <Legend formatter={(value: string) => <span className="chart-legend-text">{value}</span>} />
                <Bar name="This period" dataKey="count" fill="#1d4ed8" isAnimationActive={false}>
                  <LabelList dataKey="count" position="right" fill="#1f2937" formatter={(value) => formatNumber(Number(value))} />
                </Bar>
                <Bar name="Previous period" dataKey="previous" fill={PREVIOUS_FILL} isAnimationActive={false}>
                  <LabelList dataKey="previous" position="right" fill="#475569" formatter={(value) => formatNumber(Number(value))} />
                </Bar>
              </BarChart>
            </ResponsiveContainer>
          </div>
          <div className="table-scroll" role="region" aria-label="The funnel's figures" tabIndex={0}>
            {/* Below 768 px each step is a card, each figure led by its column's name (data-label), as the list's rows are. */}
            <table className="stack-table" role="table">
              <caption>Totals and step-to-step conversion</caption>
              <StackTableHead columns={columns} />
              <tbody role="rowgroup">
                {steps.map((step, index) => {
                  const before = steps[index - 1];
                  const drop = before ? before.count - step.count : undefined;
                  return (
                    <tr key={step.name} role="row">
                      <th scope="row" role="rowheader">
                        {step.name}
                      </th>
                      <td role="cell" data-label={columns[1]}>
                        {formatNumber(step.count)}
                      </td>
                      <td role="cell" data-label={columns[2]}>
                        {first > 0 ? formatShare(step.count / first) : '—'}
                      </td>
                      <td role="cell" data-label={columns[3]}>
                        {dropOff(drop, before?.count ?? 0)}
                      </td>
                      <td role="cell" data-label={columns[4]}>
                        {step.previous === undefined ? '—' : formatNumber(step.previous)}
                      </td>
                      <td role="cell" data-label={columns[5]}>
                        {step.previous === undefined ? '—' : signed(step.count - step.previous)}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </div>
      ) : funnel.isPending && pageId ? (
        <p aria-busy="true">Loading the funnel…</p>
      ) : null}
    </>
  );
}
