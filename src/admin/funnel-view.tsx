import { useEffect, useRef, useState } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { FunnelReport } from '../shared/admin';
import { api, queryString } from './api';
import { Options, usePageChoices } from './options';

const COLORS = ['#1d4ed8', '#0f766e', '#b45309', '#7c3aed', '#be123c', '#334155'];
const percent = new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 1 });

/**
 * The funnel (issue 7): per UTC day, how many applicants reached each step,
 * submitted and clicked through to sign-up, drawn with Recharts (this module
 * is a lazy chunk of the inbox), and the same figures with the step-to-step
 * conversion as a table for screen readers and keyboards.
 */
export default function FunnelView() {
  const [error, setError] = useState<string>();
  const { choices: pages, failed: pagesFailed } = usePageChoices();
  const [chosenPageId, setPageId] = useState<string>();
  // The first page until the reader chooses one.
  const pageId = chosenPageId ?? pages[0]?.value;
  const [range, setRange] = useState<{ from?: string; to?: string }>({});
  const [report, setReport] = useState<FunnelReport>();
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => headingRef.current?.focus(), []);
  useEffect(() => {
    if (!pageId) return;
    api<FunnelReport>(`/funnel${queryString({ pageId, ...range })}`).then(
      (loaded) => {
        setReport(loaded);
        setError(undefined);
      },
      (caught: unknown) => setError(caught instanceof Error ? caught.message : 'The funnel could not be loaded.'),
    );
  }, [pageId, range]);

  const rows = report?.days.map((day) => ({
    day: day.day.slice(5),
    ...Object.fromEntries(report.steps.map((step, index) => [step, day.reached[index] ?? 0])),
    Submitted: day.submitted,
    'Sign-up clicks': day.signInClicked,
  }));
  const series = report ? [...report.steps, 'Submitted', 'Sign-up clicks'] : [];

  return (
    <>
      <h1 ref={headingRef} tabIndex={-1}>
        Funnel
      </h1>
      <form className="filters" aria-label="Funnel range" onSubmit={(event) => event.preventDefault()}>
        <label>
          Page
          <select value={pageId ?? ''} onChange={(event) => setPageId(event.target.value)}>
            <Options choices={pages} />
          </select>
        </label>
        <label>
          From
          <input type="date" value={range.from ?? ''} onChange={(event) => setRange((current) => ({ ...current, from: event.target.value || undefined }))} />
        </label>
        <label>
          To
          <input type="date" value={range.to ?? ''} onChange={(event) => setRange((current) => ({ ...current, to: event.target.value || undefined }))} />
        </label>
      </form>
      {error || pagesFailed ? (
        <p role="alert" className="error">
          {error ?? 'The pages could not be loaded.'}
        </p>
      ) : null}
      {report && rows ? (
        <>
          <figure className="chart" aria-label="Applicants per day and step">
            <ResponsiveContainer width="100%" height={320}>
              <BarChart data={rows}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="day" />
                <YAxis allowDecimals={false} />
                <Tooltip />
                <Legend itemSorter={null} />
                {series.map((name, index) => (
                  <Bar key={name} dataKey={name} fill={COLORS[index % COLORS.length]} isAnimationActive={false} />
                ))}
              </BarChart>
            </ResponsiveContainer>
            <figcaption>
              Applicants per day ({report.days[0]?.day} to {report.days.at(-1)?.day}, UTC) reaching each step.
            </figcaption>
          </figure>
          <table>
            <caption>Totals and step-to-step conversion</caption>
            <thead>
              <tr>
                <th scope="col">Step</th>
                <th scope="col">Reached</th>
                <th scope="col">Went on to the next step</th>
              </tr>
            </thead>
            <tbody>
              {report.steps.map((step, index) => {
                const rate = report.conversion[index]?.rate;
                return (
                  <tr key={step}>
                    <th scope="row">{step}</th>
                    <td>{report.totals.reached[index]}</td>
                    <td>{rate === undefined ? '—' : rate === null ? 'no data' : percent.format(rate)}</td>
                  </tr>
                );
              })}
              <tr>
                <th scope="row">Submitted</th>
                <td>{report.totals.submitted}</td>
                <td>—</td>
              </tr>
              <tr>
                <th scope="row">Sign-up clicks</th>
                <td>{report.totals.signInClicked}</td>
                <td>—</td>
              </tr>
            </tbody>
          </table>
        </>
      ) : null}
    </>
  );
}
