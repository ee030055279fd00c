import type { ApplicationListItem } from '../../shared/admin';
import { payloadPlatforms, platformKeys } from '../../shared/platforms';
import type { InboxRow } from '../store/inbox-rows';

/** An application row as the inbox API lists it (DESIGN §8): its platforms keyed by name, the e-mail as the applicant wrote it. */
export function toListItem(row: InboxRow): ApplicationListItem {
  const info = (row.payload as { personalInfo?: { emailAddress?: unknown } } | null)?.personalInfo;
  return {
    id: row.id,
    pageId: row.pageId,
    receivedAt: row.receivedAt,
    status: row.status,
    firstName: row.firstName,
    lastName: row.lastName,
    emailAddress: typeof info?.emailAddress === 'string' ? info.emailAddress : row.email,
    ...(row.countryCode ? { countryCode: row.countryCode } : {}),
    platforms: Object.fromEntries(
      payloadPlatforms(row.payload).map(({ platform, handle, followers }) => {
        const { identity, audience } = platformKeys(platform);
        return [platform, followers === undefined ? { [identity]: handle } : { [identity]: handle, [audience]: followers }];
      }),
    ),
    ...(row.duplicateOf ? { duplicateOf: row.duplicateOf } : {}),
    ...(row.unreadable ? { unreadable: true } : {}),
  };
}
