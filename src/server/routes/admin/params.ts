import { DEFAULT_MESSAGES } from '../../../shared/messages';
import { isPlainText } from '../../../shared/rules';
import { z } from '../../../shared/zod';

/**
 * A value in an inbox path (an application's, a note's, a tag's or a saved view's id): any plain
 * text the store is asked about (an unknown one is a 404). A control character, a lone surrogate
 * or a noncharacter (isPlainText) is a 400 naming the parameter, on both stores alike: PostgreSQL
 * cannot even search for a NUL (an outside attack on the inbox: `GET /applications/a%00b`).
 */
const pathValue = z.string().check(z.refine(isPlainText, DEFAULT_MESSAGES.plainText));

/** `{id}` of an inbox path. */
export const IdParams = z.object({ id: pathValue });

/** `{id}` and `{noteId}` of a note's path. */
export const NoteParams = z.object({ id: pathValue, noteId: pathValue });
