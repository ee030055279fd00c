/**
 * The rules of the addresses a page's configuration holds (docs/decisions/021, "After
 * the outside attack on the submit path's edges"), one source of truth for the configuration's
 * schema (config.ts: the builder, the server at publish and at start, `npm run check-config`),
 * the page's Content Security Policy (src/server/plugins/security-headers.ts) and its image
 * origins (cover-image.ts). Imports nothing: the wizard's first chunk may read it.
 */

/**
 * A host name: labels of letters, digits and hyphens (RFC 1123 §2.1) between dots, each at most 63
 * characters, at most 253 in all, in lower case (WHATWG URL writes a parsed host so: `Bücher.example`
 * becomes `xn--bcher-kva.example`). An IPv4 address matches too. It is also what a Content
 * Security Policy's host source takes (CSP Level 3 §2.3.1 `host-char`): no `*`, `_`, `;` or `,`.
 */
export const HOST_NAME_PATTERN = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** The origin a same-site path is read against: a path that resolves elsewhere leaves the site. */
const SITE = 'https://site.invalid';

/**
 * Why `text` is not an `http:` or `https:` URL a page may name, or undefined when it is one: it must
 * parse as a browser reads it (WHATWG URL: `https://` alone or `https://a b` does not), and its host
 * must be a host name ({@link HOST_NAME_PATTERN}). A host such as `a.example;x` or `a.example,x`
 * parses, but would end a directive (`;`) or a source list (`,`) of the page's Content Security
 * Policy, which names the hosts of these URLs (decision 021's outside attack on the submit path's edges: every answer
 * of the page was 500); `*` would allow every site.
 * @returns the problem in words, for a configuration problem's `message`.
 */
export function httpUrlProblem(text: string): string | undefined {
  if (!/^https?:\/\//.test(text) || !URL.canParse(text)) return 'expected an http(s) URL';
  const host = new URL(text).hostname;
  if (host.includes('*')) return `"${host}" is not a host name: a wildcard would allow every site; name the host (apply.brand.example)`;
  if (!HOST_NAME_PATTERN.test(host)) return `"${host}" is not a host name: use letters, digits, hyphens and dots only (such as cdn.brand.example)`;
  return undefined;
}

/**
 * Whether `text` is an http(s) URL a page may name ({@link httpUrlProblem} finds nothing).
 */
export function isHttpUrl(text: string): boolean {
  return httpUrlProblem(text) === undefined;
}

/**
 * Why `text` is not a path on this site, or undefined when it is one: it starts with one `/` and,
 * read as a browser reads a link against the page's address, stays on the page's origin. `//evil.example/`
 * (protocol-relative), `/\evil.example/` (a browser reads `\` as `/`) and `/<tab>/evil.example/`
 * (a browser drops tabs and line breaks) all lead to another site (decision 021's outside attack on the submit path's edges).
 */
export function sitePathProblem(text: string): string | undefined {
  if (!text.startsWith('/')) return 'expected a path starting with /';
  if (!URL.canParse(text, SITE) || new URL(text, SITE).origin !== SITE)
    return 'expected a path on this site: one "/" first, not "//" or "/\\" (a browser reads those as another site\'s address)';
  return undefined;
}

/**
 * Why `text` is neither an http(s) URL a page may name ({@link httpUrlProblem}) nor a path on this
 * site ({@link sitePathProblem}), or undefined: the rule of `signUpUrl`, footer links, `logo`
 * and cover images.
 */
export function urlOrPathProblem(text: string): string | undefined {
  if (text.startsWith('/')) return sitePathProblem(text);
  if (/^https?:\/\//.test(text)) return httpUrlProblem(text);
  return 'expected an http(s) URL or a path starting with /';
}

/**
 * The origin of an http(s) URL a page may name (`https://cdn.brand.example:8443`), or undefined
 * for anything else: a path, a URL that does not parse or whose host is no host name, a value of
 * another type. What the page's Content Security Policy names, so a value stored before these
 * rules (or not checked by them) can never put `;`, `,` or `*` in it.
 */
export function policyOrigin(url: unknown): string | undefined {
  return typeof url === 'string' && isHttpUrl(url) ? new URL(url).origin : undefined;
}

/**
 * Reads the origins applications may be sent to besides this server (`SUBMIT_ORIGINS_ALLOWED`):
 * a comma-separated list of origins, each an http(s) URL with no path, query or credentials
 * (`https://crm.brand.example,https://forms.partner.example:8443`); a trailing `/` is dropped.
 * Empty: none.
 * @returns the origins, as WHATWG URL writes them (lower case, default port dropped).
 * @throws Error whose one-line message names the entry and the form expected.
 */
export function parseSubmitOrigins(value: string): string[] {
  const text = value.trim();
  if (text === '') return [];
  return text.split(',').map((entry) => {
    const trimmed = entry.trim();
    const problem = trimmed === '' ? 'an entry is empty' : httpUrlProblem(trimmed);
    if (problem) throw new Error(`${problem} (${JSON.stringify(trimmed)}); expected a comma-separated list of origins such as https://crm.brand.example`);
    const url = new URL(trimmed);
    if (url.username || url.password || url.search || url.hash || url.pathname !== '/' || /[?#]/.test(trimmed)) {
      throw new Error(`"${trimmed}" is not an origin: give the scheme, host and port only, such as https://crm.brand.example`);
    }
    return url.origin;
  });
}

/**
 * Why a page may not send its applications to `requestUrl`, or undefined when it may (the
 * attack on the submit path's edges: an editor could send every applicant's answers to another
 * site): nowhere (absent: this server's submit path; `""`: nothing is sent), a path on this server
 * (judged by the configuration's checks: its own submit path only), or a URL whose origin the
 * operator allows (`allowedOrigins`, from `SUBMIT_ORIGINS_ALLOWED`).
 * @param allowedOrigins - as {@link parseSubmitOrigins} returns them.
 */
export function submitOriginProblem(requestUrl: string | undefined, allowedOrigins: readonly string[]): string | undefined {
  if (requestUrl === undefined || requestUrl === '' || requestUrl.startsWith('/')) return undefined;
  const origin = policyOrigin(requestUrl);
  if (origin !== undefined && allowedOrigins.includes(origin)) return undefined;
  return `applications may be sent to this server or to an origin the operator allows (SUBMIT_ORIGINS_ALLOWED: ${allowedOrigins.length > 0 ? allowedOrigins.join(', ') : 'none'}), not to ${origin ?? JSON.stringify(requestUrl)}`;
}
