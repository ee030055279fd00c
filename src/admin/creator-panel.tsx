import { Link } from 'wouter';
import type { ApplicationDetail, EarlierSubmission } from '../shared/admin';
import { ApplicantName } from './applicant-text';
import { STATUS_LABELS, formatCount, formatDateTime, platformLabel } from './format';
import { CountryWithFlag } from './labels';

const MATCH_LABELS: Record<EarlierSubmission['matchedBy'][number], string> = { email: 'same email', handle: 'same handle' };

/**
 * "Creator at a glance" (issue 16): the country with its flag (the SVG the server serves from
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
          <dd>
            {detail.countryCode ? <CountryWithFlag code={detail.countryCode} /> : 'Not given'}
          </dd>
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

      <h3>Earlier applications</h3>
      {detail.earlierSubmissions.length === 0 ? (
        <p>None with this email or these handles.</p>
      ) : (
        <div className="table-scroll">
          <table className="earlier">
            <caption className="visually-hidden">Earlier applications of this creator</caption>
            <thead>
              <tr>
                <th scope="col">Received</th>
                <th scope="col">Name</th>
                <th scope="col">Page</th>
                <th scope="col">Status</th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {detail.earlierSubmissions.map((earlier) => (
                <tr key={earlier.id}>
                  <td>
                    <Link href={`/applications/${earlier.id}`}>
                      <time dateTime={earlier.receivedAt}>{formatDateTime(earlier.receivedAt)}</time>
                    </Link>
                  </td>
                  <td>
                    <ApplicantName firstName={earlier.firstName} lastName={earlier.lastName} />
                  </td>
                  <td>
                    <bdi>{earlier.pageId}</bdi>
                  </td>
                  <td>
                    <span className={`badge status-${earlier.status}`}>{STATUS_LABELS[earlier.status]}</span>
                  </td>
                  <td>{earlier.matchedBy.map((match) => MATCH_LABELS[match]).join(', ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
