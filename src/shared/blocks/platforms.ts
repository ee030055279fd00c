import { formatMessage, type Messages } from '../messages';
import { PLATFORM_LABELS, PLATFORM_NAMES, platformKeys, platformPath, type PlatformName } from '../platforms';
import { MAX_DIGITS_LENGTH, MAX_HANDLE_LENGTH, MAX_URL_LENGTH } from '../rules';
import { z } from '../schema-parts';
import type { BlockDefinition, PageField, Rule, ValidationTarget } from './block';

/**
 * The platforms block (requirements §2, §3): 'Platforms you share content on', a handle and followers
 * row per configured platform (url and monthly traffic for the website), and the platform-filled
 * rule (requirements §4, §5) over them.
 */

/** One platform row of a platforms block. */
export const PlatformEntrySchema = z.strictObject({
  name: z.enum(PLATFORM_NAMES),
  placeholder: z.optional(z.string()),
  required: z.optional(z.boolean()),
});

/** The platforms block: 'Platforms you share content on' with a handle + followers row each. */
export const PlatformsBlockSchema = z.strictObject({
  component: z.literal('platforms'),
  data: z.strictObject({
    title: z.string(),
    platforms: z.array(PlatformEntrySchema).check(z.minLength(1)),
  }),
});
type PlatformsBlock = z.infer<typeof PlatformsBlockSchema>;

/** The virtual path of the platform-filled flag (requirements §4); never part of the payload. */
export const PLATFORM_FILLED_PATH = 'platformFilled';

/** The rule a platform's identifying value keeps: a website URL, or a user name by the platform's own rule. */
export function identityRule(name: PlatformName): Rule {
  return platformKeys(name).identity === 'url' ? { name: 'url' } : { name: 'handle', platform: name };
}

/** The form-value paths of one platform row: `platforms.instagram.handle`, `….followers`. */
export function platformRowPaths(name: PlatformName): { identity: string; audience: string } {
  const base = platformPath(name);
  const { identity, audience } = platformKeys(name);
  return { identity: `${base}.${identity}`, audience: `${base}.${audience}` };
}

/**
 * A row's texts from the page's messages: the platform's name as the page says it (brands keep
 * theirs; the website is `websiteLabel`, "Site web" on a French page), the accessible names
 * 'Instagram handle', 'Instagram followers' / 'Website URL', 'Website monthly traffic', and the
 * audience box's placeholder.
 */
export function platformTexts(name: PlatformName, messages: Messages): { name: string; identity: string; audience: string; audiencePlaceholder: string } {
  const website = platformKeys(name).identity === 'url';
  const platform = name === 'website' ? messages.websiteLabel : PLATFORM_LABELS[name];
  return {
    name: platform,
    identity: formatMessage(website ? messages.urlLabel : messages.handleLabel, { platform }),
    audience: formatMessage(website ? messages.monthlyTrafficLabel : messages.followersLabel, { platform }),
    audiencePlaceholder: website ? messages.monthlyTrafficPlaceholder : messages.followersPlaceholder,
  };
}

/** The platforms block's definition (see {@link BlockDefinition}). */
export const platforms: BlockDefinition<PlatformsBlock> = {
  fields: (block) =>
    block.data.platforms.flatMap(({ name }): [string, PageField][] => {
      const paths = platformRowPaths(name);
      return [
        [paths.identity, { kind: 'text' }],
        [paths.audience, { kind: 'count' }],
      ];
    }),
  targets: (block) => {
    const rows = block.data.platforms.flatMap(({ name }): ValidationTarget[] => {
      const paths = platformRowPaths(name);
      const website = platformKeys(name).identity === 'url';
      const countMessage = website ? 'digits' : 'followers';
      return [
        {
          path: paths.identity,
          rules: [
            { name: 'requiredWith', with: paths.audience },
            identityRule(name),
            { name: 'maxLength', value: website ? MAX_URL_LENGTH : MAX_HANDLE_LENGTH },
          ],
        },
        {
          path: paths.audience,
          rules: [
            // Empty beside a filled handle: 'This field is required', not 'Enter a valid number'.
            { name: 'requiredWith', with: paths.identity },
            { name: 'count', message: countMessage },
            { name: 'maxLength', value: MAX_DIGITS_LENGTH, message: countMessage },
          ],
        },
      ];
    });
    const filled: ValidationTarget = {
      path: PLATFORM_FILLED_PATH,
      rules: [],
      platforms: block.data.platforms.map(({ name, required }) => ({ name, required: required === true })),
    };
    return [...rows, filled];
  },
  answers: (block, messages) =>
    block.data.platforms.flatMap(({ name }) => {
      const paths = platformRowPaths(name);
      const texts = platformTexts(name, messages);
      return [
        { key: paths.identity, label: texts.identity },
        { key: paths.audience, label: texts.audience },
      ];
    }),
  // A row shows while its platform is listed; "Fill at least one platform" reads every row.
  shownUnconditionally: (block) => platforms.fields(block).map(([path]) => path),
  onePerPage: {
    message: (first) => `a page has one platforms block (the first is ${first}): "Fill at least one platform" judges them as one`,
    hint: 'list every platform in the first block',
  },
  htmlData: [],
  group: 'platforms',
  platforms: (block) => block.data.platforms.map((entry) => entry.name),
  reservedPath: (segments) => {
    const last = segments.at(-1);
    if (last === PLATFORM_FILLED_PATH) return `"${segments.join('.')}" is the platform-filled flag's name, never sent: the answer would be lost`;
    if (segments[0] === 'fields' && segments[1] === 'single')
      return `"fields.single." is where the platforms block keeps LinkedIn, Threads and Reddit: the answer would read as a platform`;
    if (last === 'followers' || last === 'monthlyTraffic') return `an answer named "${last}" is read as a platform's count (grouping separators removed)`;
    return undefined;
  },
};
