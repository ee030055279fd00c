import { Bar, BarChart, LabelList, ResponsiveContainer, XAxis, YAxis } from 'recharts';
import { formatNumber, formatShare } from './format';

/** One bar: what it counts, how many, and of how many (its share's whole). */
export interface BarRow {
  label: string;
  count: number;
  /** The whole the share is of (those who answered, or every matched application); 0: no share. */
  of: number;
}

const BAR_HEIGHT = 34;

/**
 * Horizontal bars with their count and share (issue 16, the summary view), drawn by Recharts for
 * the eye, and the same figures as a table for screen readers: the chart is hidden from them
 * (`aria-hidden`, no keyboard layer), the table from the eye (`visually-hidden`), so each reader
 * gets the figures once.
 * @param caption - what the bars count, the table's caption.
 * @param head - the first column's heading (`Answer`, `Platform`).
 */
export function AnswerBars({ rows, caption, head }: { rows: readonly BarRow[]; caption: string; head: string }) {
  const data = rows.map((row) => ({ ...row, text: row.of > 0 ? `${formatNumber(row.count)} · ${formatShare(row.count / row.of)}` : formatNumber(row.count) }));
  const whole = Math.max(1, ...rows.map((row) => row.of), ...rows.map((row) => row.count));
  return (
    <>
      <div className="answer-chart" aria-hidden="true">
        <ResponsiveContainer width="100%" height={rows.length * BAR_HEIGHT + 8}>
          <BarChart layout="vertical" data={data} margin={{ top: 4, right: 110, bottom: 4, left: 4 }} accessibilityLayer={false} barCategoryGap={6}>
            <XAxis type="number" hide domain={[0, whole]} />
            <YAxis type="category" dataKey="label" width={220} tickLine={false} axisLine={false} interval={0} tick={{ fill: '#1f2937', fontSize: 14 }} />
            <Bar dataKey="count" fill="#1d4ed8" background={{ fill: '#e2e8f0' }} minPointSize={2} isAnimationActive={false}>
              <LabelList dataKey="text" position="right" fill="#1f2937" fontSize={14} />
            </Bar>
          </BarChart>
        </ResponsiveContainer>
      </div>
      <table className="visually-hidden">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{head}</th>
            <th scope="col">Applications</th>
            <th scope="col">Share</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.label}>
              <th scope="row">{row.label}</th>
              <td>{formatNumber(row.count)}</td>
              <td>{row.of > 0 ? formatShare(row.count / row.of) : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
