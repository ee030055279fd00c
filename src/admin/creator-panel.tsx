import { Link } from 'wouter';
import type { ApplicationDetail, EarlierSubmission, FilterQuestion } from '../shared/admin';
import { ApplicantName } from './applicant-text';
import { useApplicationsById } from './features/detail/api';
import { usePages } from './features/pages/api';
import { STATUS_LABELS, formatCount, formatDateTime, formatNumber, platformLabel } from './format';
import { CountryWithFlag } from './labels';

const MATCH_LABELS: Record<EarlierSubmission['matchedBy'][number], string> = { email: 'same email', handle: 'same handle' };
/** How many earlier applications are read in full and compared, newest first; older ones are listed by their link only. */
const COMPARED = 4;

/** An answer to a question with choices as the comparison shows it (`fields.<key>` in the detail's answers), by its options' names; nothing given as "—". */
function answerText(detail: ApplicationDetail, question: FilterQuestion): string {
  const value = detail.answers.find((answer) => answer.key === `fields.${question.key}`)?.value;
  if (value === undefined || value === '') return '—';
  const names = question.kind === 'multiple' ? value.split(', ') : [value];
  return names.map((name) => question.options?.find((option) => option.value === name)?.label ?? name).join(', ');
}

/**
 * The creator's earlier applications (same e-mail or same handle) side by side with this one:
 * a card per application — this one first — with its page's title, date and status,
 * what matched, the total followers and the answers to the page's questions with choices (an
 * answer that changed since is marked). The cards sit in a grid that wraps: side by side on a
 * desktop, one under the other on a phone, so nothing scrolls sideways. Each earlier card's link
 * is named by its page's title, date and status, so no two read alike. The earlier applications
 * are read in full through TanStack Query (the first {@link COMPARED}).
 */
function EarlierApplications({ detail }: { detail: ApplicationDetail }) {
  const pages = usePages().data ?? [];
  const titleOf = (pageId: string) => pages.find((page) => page.pageId === pageId)?.title ?? pageId;
  const questions = (pages.find((page) => page.pageId === detail.pageId)?.questions ?? []).filter((question) => question.kind !== 'text');
  const earlier = useApplicationsById(detail.earlierSubmissions.slice(0, COMPARED).map((submission) => submission.id));
  if (detail.earlierSubmissions.length === 0) {
    return (
      <>
        <h3>Earlier applications</h3>
        <p>None with this email or these handles.</p>
      </>
    );
  }
  const facts = (shown: ApplicationDetail | undefined) => [
    { name: 'Total followers', value: shown ? formatNumber(shown.totalFollowers) : '…' },
    ...questions.map((question) => ({ name: question.label, key: question.key, value: shown ? answerText(shown, question) : '…' })),
  ];
  const current = facts(detail);
  return (
    <>
      <h3 id="creator-earlier">Earlier applications</h3>
      <p className="meta">
        {detail.earlierSubmissions.length} earlier {detail.earlierSubmissions.length === 1 ? 'application' : 'applications'} with this email or these handles,
        beside this one.
      </p>
      <ul className="compare" aria-labelledby="creator-earlier">
        <li className="compare-card current">
          <h4>This application</h4>
          <p className="compare-when">
            {titleOf(detail.pageId)}, <time dateTime={detail.receivedAt}>{formatDateTime(detail.receivedAt)}</time>
          </p>
          <span className={`badge status-${detail.status}`}>{STATUS_LABELS[detail.status]}</span>
          <dl>
            {current.map((fact) => (
              <div key={fact.name}>
                <dt>{fact.name}</dt>
                <dd dir="auto">{fact.value}</dd>
              </div>
            ))}
          </dl>
        </li>
        {detail.earlierSubmissions.map((submission, index) => {
          const compared = index < COMPARED ? earlier[index] : undefined;
          return (
            <li key={submission.id} className="compare-card">
              <h4>
                <Link href={`/applications/${submission.id}`}>
                  {titleOf(submission.pageId)}, <time dateTime={submission.receivedAt}>{formatDateTime(submission.receivedAt)}</time>,{' '}
                  {STATUS_LABELS[submission.status]}
                </Link>
              </h4>
              <p className="compare-when">
                <ApplicantName firstName={submission.firstName} lastName={submission.lastName} /> ·{' '}
                {submission.matchedBy.map((match) => MATCH_LABELS[match]).join(', ')}
              </p>
              <span className={`badge status-${submission.status}`}>{STATUS_LABELS[submission.status]}</span>
              {compared ? (
                compared.isError ? (
                  <p>Could not be read.</p>
                ) : (
                  <dl aria-busy={compared.isPending}>
                    {facts(compared.data).map((fact, row) => (
                      <div key={fact.name}>
                        <dt>{fact.name}</dt>
                        <dd dir="auto">
                          {fact.value}
                          {compared.data && fact.value !== current[row]?.value ? <span className="badge changed"> changed since</span> : null}
                        </dd>
                      </div>
                    ))}
                  </dl>
                )
              ) : null}
            </li>
          );
        })}
      </ul>
    </>
  );
}

/**
 * "Creator at a glance": the country with its flag (the SVG the server serves from
 * `/flags/`, this origin), the phone in E.164 as a `tel:` link, each platform with its profile
 * link and its followers in the reader's locale, the total reach (followers summed, websites'
 * visitors left out), and the same creator's earlier applications (same e-mail or same handle),
 * each with its date, page, name, status and what matched. What the applicant typed is isolated
 * (`<bdi>`).
 */
export function CreatorPanel({ detail }: { detail: ApplicationDetail }) {
  // The server's total (`audienceOf`, the list's sort key): websites' visitors are not followers.
  const reach = detail.profiles.some((profile) => profile.platform !== 'website' && profile.followers) ? detail.totalFollowers : undefined;
  return (
    <section aria-labelledby="creator" className="creator-panel">
      <h2 id="creator">Creator at a glance</h2>
      <dl className="glance">
        <div>
          <dt>Country</dt>
          <dd>{detail.countryCode ? <CountryWithFlag code={detail.countryCode} /> : 'Not given'}</dd>
        </div>
        <div>
          <dt>Phone</dt>
          <dd>{detail.phoneE164 ? <a href={`tel:${detail.phoneE164}`}>{detail.phoneE164}</a> : 'Not given'}</dd>
        </div>
        <div>
          <dt>Total reach</dt>
          <dd>{reach === undefined ? 'Unknown' : `${formatCount(String(reach))} followers`}</dd>
        </div>
      </dl>

      <h3 id="creator-platforms">Platforms</h3>
      {detail.profiles.length === 0 ? <p>{detail.unreadable ? 'Not available: the stored answers could not be read.' : 'None given.'}</p> : null}
      <ul className="platforms glance-platforms" aria-labelledby="creator-platforms">
        {detail.profiles.map((platform) => (
          <li key={platform.platform}>
            <a href={platform.profileUrl} target="_blank" rel="noopener noreferrer nofollow">
              {platformLabel(platform.platform)}: <bdi>{platform.handle}</bdi>
            </a>
            {platform.followers ? ` — ${formatCount(platform.followers)} ${platform.platform === 'website' ? 'monthly visitors' : 'followers'}` : ''}
          </li>
        ))}
      </ul>

      <EarlierApplications detail={detail} />
    </section>
  );
}
