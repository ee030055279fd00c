import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { AddressPolicy } from './address-policy';

/** How long one delivery attempt may take, connection to answer: 15 s (docs/integrations.md, "Delivery"). */
export const DELIVERY_TIMEOUT_MS = 15_000;

/** The most of an answer's body read (and dropped) to keep its connection, in bytes: 64 KiB. */
const MAX_ANSWER_BYTES = 65_536;

/** What one POST to an endpoint came to: its answer's status (and `Retry-After`), or why there was none; `latencyMs` in both. */
export type PostResult = { status: number; retryAfter?: string | undefined; latencyMs: number } | { error: string; latencyMs: number };

/** The DNS lookup a delivery resolves a name with (Node's `dns.lookup` unless a test gives another). */
export type Lookup = (hostname: string, callback: (error: Error | null, addresses: LookupAddress[]) => void) => void;

const systemLookup: Lookup = (hostname, callback) => dnsLookup(hostname, { all: true }, callback);

/** Kept-alive connections per endpoint's host: a campaign's burst sends many deliveries to each. */
const AGENTS = { 'http:': new http.Agent({ keepAlive: true, maxSockets: 16 }), 'https:': new https.Agent({ keepAlive: true, maxSockets: 16 }) };

/**
 * POSTs `body` to `url` as one delivery attempt (docs/decisions/025): redirects are not followed
 * (a 3xx is an answer like any other non-2xx), the attempt ends after `timeoutMs`, and the
 * connection goes only to an address `policy` allows: a name is resolved once, its addresses
 * checked, and the socket connects to a checked one (no second lookup a DNS answer could change
 * in between); an address in the URL is checked as it is.
 * @param headers - the request's headers (the body's type and the signature's).
 * @returns the answer's status, or the error (refused address, DNS, connection, time-out); never rejects.
 */
export function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { policy: AddressPolicy; timeoutMs?: number; lookup?: Lookup },
): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      resolve({ error: 'The URL is not valid.', latencyMs: 0 });
      return;
    }
    const literal = target.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) && !options.policy(literal)) {
      resolve({ error: `The address ${literal} is not allowed (a private, loopback or link-local address).`, latencyMs: 0 });
      return;
    }
    const lookup = options.lookup ?? systemLookup;
    let refused: string | undefined;
    const checkedLookup = (
      hostname: string,
      lookupOptions: { all?: boolean },
      callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
    ) => {
      lookup(hostname, (error, addresses) => {
        const allowed = error ? [] : addresses.filter((entry) => options.policy(entry.address));
        if (allowed.length === 0) {
          // One text whether the name is unknown or resolves to a refused address, and no address:
          // the log would otherwise map the operator's internal names for anyone who reads it.
          refused = `${hostname} does not resolve to an address deliveries may reach (no such name, or a private, loopback or link-local address).`;
          return callback(new Error(refused), []);
        }
        if (lookupOptions.all) return callback(null, allowed);
        return callback(null, allowed[0]!.address, allowed[0]!.family);
      });
    };
    const client = target.protocol === 'https:' ? https : http;
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent: AGENTS[target.protocol as keyof typeof AGENTS],
        lookup: checkedLookup as unknown as http.RequestOptions['lookup'],
      },
      (response) => {
        // The status line decides (a 2xx is delivered, whatever its body does after it); the body is
        // not kept: up to MAX_ANSWER_BYTES are read and dropped, so the connection can be used again,
        // and past them, or past the time limit, the connection is closed.
        clearTimeout(timer);
        const retryAfter = response.headers['retry-after'];
        resolve({ status: response.statusCode ?? 0, retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined, latencyMs: elapsed() });
        let read = 0;
        const drain = setTimeout(() => response.destroy(), options.timeoutMs ?? DELIVERY_TIMEOUT_MS);
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) response.destroy();
        });
        response.on('close', () => clearTimeout(drain));
        response.on('error', () => undefined);
      },
    );
    const timer = setTimeout(
      () => request.destroy(new Error(`No answer within ${(options.timeoutMs ?? DELIVERY_TIMEOUT_MS) / 1000} s.`)),
      options.timeoutMs ?? DELIVERY_TIMEOUT_MS,
    );
    request.on('error', (error) => {
      clearTimeout(timer);
      resolve({ error: refused ?? error.message, latencyMs: elapsed() });
    });
    request.end(body);
  });
}
