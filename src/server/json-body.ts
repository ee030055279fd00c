import contentType from 'content-type';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as jsonc from 'jsonc-parser';

declare module 'fastify' {
  interface FastifyRequest {
    /** A JSON body's text as decoded (BOM dropped): the submit route stores it as it is once it validates. */
    rawJson?: string;
  }
}

/** A 4xx error the error handler answers as problem details, with field paths when it has them. */
export class BodyError extends Error {
  constructor(
    readonly statusCode: 400 | 415,
    message: string,
    readonly errors?: { path: string; message: string }[],
  ) {
    super(message);
    this.name = 'BodyError';
  }
}

/** UTF-8 that refuses malformed bytes; a leading byte-order mark is dropped (WHATWG Encoding "decode"). */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The charset a `Content-Type` names, lower-cased, or undefined when it names none.
 * @throws BodyError 415 when the header cannot be parsed (RFC 9110 §8.3).
 */
function charsetOf(header: string | undefined): string | undefined {
  try {
    return contentType.parse(header ?? '').parameters.charset?.toLowerCase();
  } catch {
    throw new BodyError(415, 'Send the body as application/json; charset=utf-8.');
  }
}

/**
 * The scanner tokens read here: jsonc-parser's `SyntaxKind` numbers. Its types declare them as an
 * ambient const enum, which TypeScript's `verbatimModuleSyntax` does not let code read.
 */
const TOKEN = { openBrace: 1, closeBrace: 2, openBracket: 3, closeBracket: 4, comma: 5, string: 10, eof: 17 } as const;

/** One open object (its keys so far, the key being read) or array (the index being read). */
type Container = { keys: Set<string>; key: string } | { keys: null; index: number };

/**
 * The first key that stands twice in one object of a JSON text, as a dotted path
 * (`personalInfo.firstName`), or undefined. RFC 8259 §4 leaves duplicate names to the receiver;
 * JSON.parse keeps the last value while the stored text would keep both, so a body with one is
 * refused. Runs on text JSON.parse accepted, with jsonc-parser's scanner (names unescaped, so
 * `"a"` and `"\u0061"` are the same key): a few microseconds for an application.
 */
export function findDuplicateKey(text: string): string | undefined {
  const scanner = jsonc.createScanner(text, true);
  const open: Container[] = [];
  let expectKey = false;
  for (let token: number = scanner.scan(); token !== TOKEN.eof; token = scanner.scan()) {
    const top = open.at(-1);
    switch (token) {
      case TOKEN.openBrace:
        open.push({ keys: new Set(), key: '' });
        expectKey = true;
        break;
      case TOKEN.openBracket:
        open.push({ keys: null, index: 0 });
        break;
      case TOKEN.closeBrace:
      case TOKEN.closeBracket:
        open.pop();
        break;
      case TOKEN.comma:
        if (top?.keys) expectKey = true;
        else if (top) top.index += 1;
        break;
      case TOKEN.string:
        if (expectKey && top?.keys) {
          const key = scanner.getTokenValue();
          top.key = key;
          if (top.keys.has(key)) return open.map((container) => (container.keys ? container.key : String(container.index))).join('.');
          top.keys.add(key);
          expectKey = false;
        }
        break;
    }
  }
  return undefined;
}

/**
 * Replaces Fastify's `application/json` parser for every route: the body is read as
 * UTF-8 only (any other `charset` is 415, malformed bytes are 400), a leading byte-order mark is
 * dropped before anything is kept (RFC 8259 §8.1), Fastify's own parser refuses a `__proto__`
 * key and a `constructor` key holding `prototype`, and a key given twice in one object is 400 with its path. The decoded text
 * is kept as `request.rawJson`.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request: FastifyRequest, body: Buffer, done) => {
    let text: string;
    try {
      const charset = charsetOf(request.headers['content-type']);
      if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
        throw new BodyError(415, `Send the body as UTF-8 (got charset=${charset}).`);
      }
      try {
        text = utf8.decode(body);
      } catch {
        throw new BodyError(400, 'The body is not valid UTF-8.');
      }
    } catch (error) {
      done(error as BodyError, undefined);
      return;
    }
    // TextDecoder drops one byte-order mark; a body with more would keep the rest in the stored text.
    while (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    request.rawJson = text;
    parseJson(request, text, (error, value) => {
      if (error) return done(error, undefined);
      const duplicate = findDuplicateKey(text);
      if (duplicate !== undefined) {
        return done(new BodyError(400, `The body names "${duplicate}" twice.`, [{ path: duplicate, message: 'Give each key once' }]), undefined);
      }
      done(null, value);
    });
  });
}
