import { Parser } from 'htmlparser2';
import * as z from 'zod/mini';

/**
 * The bottom of src/shared's schemas: what the form items (form-items.ts), the block modules and the
 * configuration's schema build their data schemas with; it imports nothing of the project's. `z` is zod/mini itself, without the English
 * messages `src/shared/zod.ts` loads (config.ts loads them wherever a configuration is parsed):
 * the wizard imports the block modules for their rules, never their schemas, and its build drops
 * the schemas and zod with them (vite.config.ts marks `z` calls pure; the first load's byte budget).
 */
export { z };

/** A string of at least one character: a path, an option's name or value, a step's name. */
export const nonEmpty = z.string().check(z.minLength(1));

/** A yes/no answer or a checkbox holds a boolean (the payload's 'Yes' / 'No', requirements §7). */
export const YES_OR_NO_OPTIONS: readonly boolean[] = [true, false];

/**
 * Longest HTML field of a configuration (an HTML block, a checkbox's label, a step's footer), in
 * characters (UTF-16 code units, as `String.length`): 20 000, some eighty times the default page's
 * longest (253). With {@link MAX_HTML_DEPTH} it bounds what the server sanitises and renders for a
 * page or a draft's preview (decision 021's fourth outside attack: 200 KB of nested `<div>`
 * held the event loop for seconds, and overflowed the stack of the page's description).
 */
export const MAX_HTML_LENGTH = 20_000;

/**
 * Deepest nesting of elements in an HTML field, as the sanitiser's parser (htmlparser2, under
 * `sanitize-html`) reads it: 32. The sanitiser's work grows with the square of the depth.
 */
export const MAX_HTML_DEPTH = 32;

/**
 * Whether `html` nests elements at most `max` deep, as htmlparser2 reads it (the parser of the
 * sanitiser: void elements close at once, a missing end tag is closed where HTML implies it, a
 * comment or a `<textarea>`'s text opens nothing). Stops reading at the first element past `max`.
 */
export function htmlDepthAtMost(html: string, max: number): boolean {
  let depth = 0;
  let within = true;
  const parser = new Parser(
    {
      onopentagname: () => {
        depth += 1;
        if (depth > max) {
          within = false;
          parser.pause();
        }
      },
      onclosetag: () => void (depth -= 1),
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return within;
}

/**
 * An HTML field of the configuration, sanitised before it is shown (src/shared/sanitize-html.ts):
 * at most {@link MAX_HTML_LENGTH} characters and {@link MAX_HTML_DEPTH} levels of elements.
 */
export const configHtml = z.string().check(
  z.maxLength(MAX_HTML_LENGTH, `expected at most ${MAX_HTML_LENGTH} characters of HTML`),
  z.refine((html) => html.length > MAX_HTML_LENGTH || htmlDepthAtMost(html, MAX_HTML_DEPTH), `expected elements nested at most ${MAX_HTML_DEPTH} deep`),
);
