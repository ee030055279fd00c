import type { ApplicationListItem, Tag } from '../../shared/admin';
import { audienceOf, payloadPlatforms, platformKeys } from '../../shared/platforms';
import type { InboxRow } from '../store/inbox-rows';

/**
 * An application row as the inbox API lists it (requirements §17): its platforms keyed by name, the
 * e-mail as the applicant wrote it, and its audience (total followers, largest platform).
 * @param tags - the application's tags, by name (the tag repository's `of` or `ofMany`).
 */
export function toListItem(row: InboxRow, tags: Tag[]): ApplicationListItem {
  const info = (row.payload as { personalInfo?: { emailAddress?: unknown } } | null)?.personalInfo;
  const platforms = payloadPlatforms(row.payload);
  const audience = audienceOf(platforms);
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
      platforms.map(({ platform, handle, followers }) => {
        const { identity, audience } = platformKeys(platform);
        return [platform, followers === undefined ? { [identity]: handle } : { [identity]: handle, [audience]: followers }];
      }),
    ),
    totalFollowers: audience.totalFollowers,
    ...(audience.top ? { topPlatform: audience.top } : {}),
    ...(row.duplicateOf ? { duplicateOf: row.duplicateOf } : {}),
    ...(row.unreadable ? { unreadable: true } : {}),
    tags,
  };
}
