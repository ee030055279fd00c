import { useState } from 'react';
import { Bar, BarChart, LabelList, ResponsiveContainer, XAxis, YAxis } from 'recharts';
import { formatNumber, formatShare } from './format';

/** One bar: what it counts, how many, and of how many (its share's whole). */
export interface BarRow {
  label: string;
  count: number;
  /** The whole the share is of (those who answered, or every matched application); 0: no share. */
  of: number;
}

/** Below this chart width (px) the bars take the narrow layout: a narrower label column, taller rows for wrapped labels. */
const NARROW_CHART = 520;

/**
 * The chart's proportions at `width` px: the label column, the room right of the bars for
 * "count · share", and each row's height. Fixed columns of 220 + 110 px left a plot of zero
 * width on a phone (375 px), so below {@link NARROW_CHART} the columns take shares of the width
 * and the rows grow for labels wrapped over two or three lines.
 * @param width - the chart's width in px (undefined before it is measured: the wide layout).
 */
export function barLayout(width: number | undefined): { labelWidth: number; valueWidth: number; rowHeight: number; fontSize: number } {
  if (width === undefined || width >= NARROW_CHART) return { labelWidth: 220, valueWidth: 110, rowHeight: 34, fontSize: 14 };
  return { labelWidth: Math.round(width * 0.38), valueWidth: 92, rowHeight: 50, fontSize: 13 };
}

/**
 * Horizontal bars with their count and share (the summary view), drawn by Recharts for
 * the eye, and the same figures as a table for screen readers: the chart is hidden from them
 * (`aria-hidden`, no keyboard layer), the table from the eye (`visually-hidden`), so each reader
 * gets the figures once.
 * @param caption - what the bars count, the table's caption.
 * @param head - the first column's heading (`Answer`, `Platform`).
 */
export function AnswerBars({ rows, caption, head }: { rows: readonly BarRow[]; caption: string; head: string }) {
  const data = rows.map((row) => ({ ...row, text: row.of > 0 ? `${formatNumber(row.count)} · ${formatShare(row.count / row.of)}` : formatNumber(row.count) }));
  const whole = Math.max(1, ...rows.map((row) => row.of), ...rows.map((row) => row.count));
  const [width, setWidth] = useState<number>();
  const layout = barLayout(width);
  return (
    <>
      <div className="answer-chart" aria-hidden="true">
        <ResponsiveContainer width="100%" height={rows.length * layout.rowHeight + 8} onResize={(measured) => setWidth(measured)}>
          <BarChart
            layout="vertical"
            data={data}
            margin={{ top: 4, right: layout.valueWidth, bottom: 4, left: 4 }}
            accessibilityLayer={false}
            barCategoryGap={6}
          >
            <XAxis type="number" hide domain={[0, whole]} />
            <YAxis
              type="category"
              dataKey="label"
              width={layout.labelWidth}
              tickLine={false}
              axisLine={false}
              interval={0}
              tick={{ fill: '#1f2937', fontSize: layout.fontSize }}
            />
            <Bar dataKey="count" fill="#1d4ed8" background={{ fill: '#e2e8f0' }} minPointSize={2} isAnimationActive={false}>
              <LabelList dataKey="text" position="right" fill="#1f2937" fontSize={layout.fontSize} />
            </Bar>
          </BarChart>
        </ResponsiveContainer>
      </div>
      {/* Hidden in a block of its own: a table's boxes ignore the width and clip that hide it, and widened the page (996 px at 375). */}
      <div className="visually-hidden">
        <table>
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
      </div>
    </>
  );
}
