import { useFormContext } from 'react-hook-form';
import type { BlockOf } from '../../shared/config';
import { formatMessage } from '../../shared/messages';
import { PLATFORM_FILLED_PATH, platformRowPaths, platformTexts } from '../../shared/blocks/platforms';
import { handleFromProfileUrl, platformKeys, type PlatformName } from '../../shared/platforms';
import { FieldError } from '../controls/field-error';
import { markRequired } from '../controls/required-mark';
import { TextField } from '../controls/text-field';
import { useField, useRevalidate, useWizard } from '../engine/wizard-context';

type Entry = BlockOf<'platforms'>['data']['platforms'][number];

/**
 * 'Platforms you share content on' (requirements §2): a handle and followers row
 * per platform (url and monthly traffic for website) and the platform-filled
 * rule's message ('Fill at least one platform', requirements §5).
 */
export function PlatformsBlock({ block }: { block: BlockOf<'platforms'> }) {
  const { formState } = useFormContext();
  const filledError = (formState.errors[PLATFORM_FILLED_PATH]?.message as string | undefined) ?? undefined;
  const titleId = 'platforms-title';
  // The rows the platform-filled rule asks for: the required ones, or any when none is.
  const someRequired = block.data.platforms.some((entry) => entry.required);
  return (
    <section className="platforms" aria-labelledby={titleId} aria-describedby={filledError ? 'platformFilled-error' : undefined}>
      {/* At least one platform is always asked for (requirements §5); a required platform's boxes are
          announced as required themselves (aria-required). */}
      <h2 id={titleId} className={markRequired('section-title', true)}>
        {block.data.title}
      </h2>
      {block.data.platforms.map((entry) => (
        <PlatformRow key={entry.name} entry={entry} shown={filledError !== undefined} counts={filledError !== undefined && (entry.required || !someRequired)} />
      ))}
      <FieldError id="platformFilled-error" message={filledError} />
    </section>
  );
}

/**
 * One platform's row. `shown`: the platform-filled rule's message shows; the row then re-checks it
 * after each keystroke and as a field is left, as a personal field's error is (outside review: it
 * stayed, with the other rows red, until the next Continue). `counts`: the rule failed and asks
 * for this row (its empty handle then shows invalid too, not only the message under the block).
 */
function PlatformRow({ entry, shown, counts }: { entry: Entry; shown: boolean; counts: boolean }) {
  const { messages } = useWizard();
  const name: PlatformName = entry.name;
  const keys = platformKeys(name);
  const paths = platformRowPaths(name);
  const texts = platformTexts(name, messages);
  const identity = useField<string | undefined>(paths.identity);
  const audience = useField<string | undefined>(paths.audience);
  const revalidate = useRevalidate();
  const recheck = () => revalidate([identity.name, audience.name, PLATFORM_FILLED_PATH]);
  // Leaving a field re-checks the block's rule too (react-hook-form checks only the field left);
  // `revalidate` skips it unless its message shows.
  const leave = (onBlur: () => void) => () => {
    onBlur();
    revalidate([PLATFORM_FILLED_PATH]);
  };
  // A pasted profile address: 'Enter your username only', and the user name found in it, one press away.
  const found = identity.error && keys.identity === 'handle' ? handleFromProfileUrl(name, identity.value ?? '') : undefined;
  return (
    <div className="platform-row">
      <span className={markRequired('platform-name', entry.required)} aria-hidden="true">
        {texts.name}
      </span>
      <TextField
        id={identity.id}
        name={identity.name}
        ariaLabel={texts.identity}
        placeholder={entry.placeholder}
        type={keys.identity === 'url' ? 'url' : 'text'}
        inputMode={keys.identity === 'url' ? 'url' : 'text'}
        autoComplete="off"
        value={identity.value ?? ''}
        onChange={identity.onChange}
        onBlur={leave(identity.onBlur)}
        onSettle={recheck}
        settleAtOnce={shown}
        error={identity.error}
        required={entry.required}
        invalidBy={counts && !identity.value ? 'platformFilled-error' : undefined}
        inputRef={identity.ref}
      />
      <TextField
        id={audience.id}
        name={audience.name}
        ariaLabel={texts.audience}
        placeholder={texts.audiencePlaceholder}
        inputMode="numeric"
        autoComplete="off"
        value={audience.value ?? ''}
        onChange={audience.onChange}
        onBlur={leave(audience.onBlur)}
        onSettle={recheck}
        settleAtOnce={shown}
        error={audience.error}
        required={entry.required}
        inputRef={audience.ref}
      />
      {/* After the followers box in the document, so the grid puts it on a line of its own under the handle. */}
      {found !== undefined && (
        <button
          type="button"
          className="handle-suggestion"
          aria-describedby={`${identity.id}-error`}
          onClick={() => {
            identity.onChange(found);
            recheck();
            document.getElementById(identity.id)?.focus();
          }}
        >
          {formatMessage(messages.useHandle, { handle: found })}
        </button>
      )}
    </div>
  );
}
