import { useEffect, useMemo, useRef } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import type { SummaryQuestion } from '../shared/admin';
import { AnswerBars, type BarRow } from './answer-bars';
import { queryString } from './api';
import { useSummary } from './features/summary/api';
import { describeFilters, filtersInAddress, useFilterNames } from './filters';
import { formatNumber, formatShare } from './format';
import { usePageChoices } from './options';

/** The bars of a question with choices: every option, then the answers no option of today's page holds. */
function optionRows(question: SummaryQuestion): BarRow[] {
  const rows: BarRow[] = question.options.map((option) => ({ label: option.label, count: option.count, of: question.answered }));
  if (question.other > 0) rows.push({ label: 'Other (no longer offered)', count: question.other, of: question.answered });
  return rows;
}

/** "3 of 5 answered (60%)". */
function answeredLine(question: SummaryQuestion, matched: number) {
  const share = matched > 0 ? ` (${formatShare(question.answered / matched)})` : '';
  return `${formatNumber(question.answered)} of ${formatNumber(matched)} answered${share}${question.kind === 'multiple' ? '; each could pick several' : ''}.`;
}

/**
 * The whole picture of a page: for the list's filters, read from the address, how many
 * applications match, how many gave each platform, and per question the distribution of the
 * answers — bars with counts and shares, as Typeform's summary shows them — or, for free text, how
 * many answered. A lazy chunk of the inbox (Recharts); the figures are read with TanStack Query.
 */
export default function SummaryView() {
  // What is shown follows the address, always: the top bar's "Summary" (no filters) after a view's summary shows every application.
  const search = useSearch();
  const [, navigate] = useLocation();
  const filters = useMemo(() => filtersInAddress(search), [search]);
  const { choices: pages } = usePageChoices();
  const names = useFilterNames();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);

  const summary = useSummary(filters);
  const data = summary.data;
  const pageTitle = pages.find((page) => page.value === data?.pageId)?.label ?? data?.pageId;
  const shown = describeFilters(filters, names, ['pageId']);

  return (
    <>
      <h1 ref={headingRef} tabIndex={-1}>
        Summary
      </h1>
      <div className="summary-bar">
        {pages.length > 1 ? (
          <label>
            Page
            <select
              value={filters.pageId ?? data?.pageId ?? ''}
              onChange={(event) => navigate(`/summary${queryString({ ...filters, pageId: event.target.value })}`)}
            >
              {pages.map((page) => (
                <option key={page.value} value={page.value}>
                  {page.label}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <p className="summary-filters">
          {pageTitle ? <strong>{pageTitle}</strong> : null}
          {shown.length > 0 ? ` — ${shown.join(', ')}` : ' — every application'}
        </p>
        <Link className="button secondary" href={`/${queryString(filters)}`}>
          Back to the list of this view
        </Link>
      </div>

      {summary.isError ? (
        <p role="alert" className="error">
          The summary could not be loaded: {summary.error.message}{' '}
          <button type="button" onClick={() => void summary.refetch()}>
            Try again
          </button>
        </p>
      ) : null}
      {!data && summary.isPending ? (
        <p aria-busy="true" className="loading">
          Loading the summary…
        </p>
      ) : null}

      {data ? (
        <div aria-busy={summary.isFetching}>
          <p className="summary-total" role="status">
            {data.matched === 0
              ? 'No applications match these filters.'
              : `${formatNumber(data.matched)} ${data.matched === 1 ? 'application matches' : 'applications match'}.`}
          </p>
          {data.matched > 0 ? (
            <>
              {data.platforms.length > 0 ? (
                <section className="summary-card" aria-labelledby="summary-platforms">
                  <h2 id="summary-platforms">Platforms</h2>
                  <p className="meta">Applicants who gave each platform; each could give several.</p>
                  <AnswerBars
                    caption="Applicants per platform, and their share of the matching applications"
                    head="Platform"
                    rows={data.platforms.map((platform) => ({ label: platform.label, count: platform.count, of: data.matched }))}
                  />
                </section>
              ) : null}
              {data.questions.map((question, index) => {
                const headingId = `summary-question-${index}`;
                return (
                  <section key={question.key} className="summary-card" aria-labelledby={headingId}>
                    <h2 id={headingId}>{question.label}</h2>
                    <p className="meta">{answeredLine(question, data.matched)}</p>
                    {question.kind === 'text' ? null : question.answered === 0 ? (
                      <p>Nobody answered this question.</p>
                    ) : (
                      <AnswerBars
                        caption={`${question.label}: applications per answer, and their share of those who answered`}
                        head="Answer"
                        rows={optionRows(question)}
                      />
                    )}
                  </section>
                );
              })}
            </>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
