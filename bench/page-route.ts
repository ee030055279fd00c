/**
 * The page-route section of `npm run bench` (BENCH_PAGE_ROUTE=off skips it): `GET /`
 * as browsers ask for it, requests per second and latency of the compiled server, three set-ups
 * measured in turns in the same run (ROUNDS rounds of SECONDS each after a warm-up, medians):
 * - today's one page: a server with no stored page, every request the default page;
 * - 20 stored pages by host name: a server with 20 published pages, each with its own host name,
 *   every request for one of them in turn (its `Host`, its own `XSRF-TOKEN` cookie);
 * - the default page on that same server (a host name of no page);
 * - the wizard's script (the first `/assets/….js` the page names) from today's one page's server,
 *   as the browser fetches it after the page: a static file, compressed (br), with every
 *   security header (the routes' common hooks, not the page's own work).
 * Each request carries what a returning browser sends to the page: `Accept`, `Accept-Encoding`
 * (br, so the answer is compressed as it is for them), `Accept-Language`, `User-Agent`, and the
 * cookies of an earlier visit (the page's `XSRF-TOKEN` and two analytics cookies). SQLite stores
 * (a page's version is served from memory: the store is not read per request). Servers on core 1,
 * the load generator on core 0 when the machine has two cores (server-process.ts).
 * BENCH_SECONDS, BENCH_ROUNDS and BENCH_WARM_UP_SECONDS as for the submit section.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { loadWizardConfig } from '../src/server/load-config';
import { publishCheck } from '../src/shared/page-checks';
import { openStore } from '../src/server/store/store';
import { ROOT } from '../tests/support/server-process';
import { PINNED, start, stop, type ServerProcess } from './server-process';
import { median } from './statistics';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARM_UP_SECONDS = Number(process.env.BENCH_WARM_UP_SECONDS ?? 3);
const CONNECTIONS = 50;
/** Stored pages on the second server: 20, against today's one page. */
const PAGES = 20;

/** What Chromium sends for a page it has visited before, cookies apart. */
const BROWSER_HEADERS = {
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8',
  'accept-encoding': 'gzip, deflate, br, zstd',
  'accept-language': 'en-US,en;q=0.9',
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'upgrade-insecure-requests': '1',
  'sec-fetch-dest': 'document',
  'sec-fetch-mode': 'navigate',
  'sec-fetch-site': 'none',
};
/** Analytics cookies a brand's site leaves beside the page's own. */
const OTHER_COOKIES =
  '_ga=GA1.1.1234567890.1764240000; mp_0123456789abcdef_mixpanel=%7B%22distinct_id%22%3A%20%22%24device%3A19abc%22%2C%22%24initial_referrer%22%3A%20%22%24direct%22%7D';

/** `GET /` of `url` under the host name `host` (fetch sends the URL's own `Host`): the page and its cookies. */
function getPage(url: string, host: string): Promise<{ html: string; cookies: string[] }> {
  return new Promise((resolve, reject) => {
    get(`${url}/`, { headers: { host } }, (response) => {
      let html = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (html += chunk));
      response.on('end', () => resolve({ html, cookies: response.headers['set-cookie'] ?? [] }));
    }).on('error', reject);
  });
}

/** The path of the first script `GET /` of `url` names (`/assets/….js`). @throws Error when it names none. */
async function scriptOf(url: string, host: string): Promise<string> {
  const path = /\/assets\/[\w.-]+\.js/.exec((await getPage(url, host)).html)?.[0];
  if (!path) throw new Error(`the page of ${host} names no script`);
  return path;
}

/** A host name's `Cookie` header: its own `XSRF-TOKEN` (from a first visit) and the analytics cookies. */
async function cookieFor(url: string, host: string): Promise<string> {
  const xsrf = (await getPage(url, host)).cookies.find((line) => line.startsWith('XSRF-TOKEN='))!.split(';')[0]!;
  return `${OTHER_COOKIES}; ${xsrf}`;
}

/** A store file with `pages` published pages, page `n`'s host `brand-n.bench.example`. */
async function storeWithPages(pages: number): Promise<{ url: string; hosts: string[]; remove: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-page-route-'));
  const url = `sqlite:${join(dir, 'applications.db')}`;
  const store = await openStore(url);
  const hosts: string[] = [];
  try {
    const config = loadWizardConfig(join(ROOT, 'config', 'wizard.json'));
    for (let n = 1; n <= pages; n++) {
      const id = `brand-${String(n).padStart(2, '0')}`;
      const host = `${id}.bench.example`;
      await store.pages.create(id, { draft: { ...config, title: `Brand ${n} creators` } }, 'bench@brand.example');
      const published = await store.pages.publish(id, 1, 'bench@brand.example', (draft) => publishCheck(draft, id));
      if (!('version' in published)) throw new Error(`page ${id} was not published: ${JSON.stringify(published)}`);
      await store.pages.update(id, { hosts: [host] }, 'bench@brand.example');
      hosts.push(host);
    }
  } finally {
    await store.close();
  }
  return { url, hosts, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

interface Figures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
}

/** `GET path` (default `/`) for `seconds`, each request for the next of `hosts` with its cookies. */
async function measure(target: ServerProcess, hosts: { host: string; cookie: string }[], seconds: number, path = '/'): Promise<Figures> {
  let n = 0;
  const result = await autocannon({
    url: target.url,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: 'GET',
        path,
        setupRequest: (request) => {
          const { host, cookie } = hosts[n++ % hosts.length]!;
          return { ...request, headers: { ...BROWSER_HEADERS, host, cookie } };
        },
      },
    ],
  });
  return { requestsPerSecond: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx + result.errors };
}

/** Prints the section's table: each set-up's medians, and its requests per second against today's one page. */
export async function benchPageRoute(): Promise<void> {
  const stored = await storeWithPages(PAGES);
  const empty = await storeWithPages(0);
  const servers: ServerProcess[] = [];
  try {
    const today = await start('src/server/server.ts', { DATABASE_URL: empty.url });
    servers.push(today);
    const many = await start('src/server/server.ts', { DATABASE_URL: stored.url });
    servers.push(many);
    const todayHost = new URL(today.url).host;
    const manyHost = new URL(many.url).host;
    const setups = [
      { name: "today's one page (no stored page)", target: today, hosts: [{ host: todayHost, cookie: await cookieFor(today.url, todayHost) }] },
      {
        name: `${PAGES} stored pages, each by its host name`,
        target: many,
        hosts: await Promise.all(stored.hosts.map(async (host) => ({ host, cookie: await cookieFor(many.url, host) }))),
      },
      { name: `the default page beside ${PAGES} stored pages`, target: many, hosts: [{ host: manyHost, cookie: await cookieFor(many.url, manyHost) }] },
      {
        name: "the wizard's script (a static file) from today's one page's server",
        target: today,
        hosts: [{ host: todayHost, cookie: await cookieFor(today.url, todayHost) }],
        path: await scriptOf(today.url, todayHost),
      },
    ];
    // Every host answers its own page before the load starts.
    for (const { host } of setups[1]!.hosts) {
      const { html } = await getPage(many.url, host);
      if (!html.includes(`<title>Brand ${Number(host.slice(6, 8))} creators</title>`)) throw new Error(`${host} does not serve its page`);
    }
    for (const setup of setups) await measure(setup.target, setup.hosts, WARM_UP_SECONDS, setup.path);
    const rounds = setups.map((): Figures[] => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [index, setup] of setups.entries()) rounds[index]!.push(await measure(setup.target, setup.hosts, SECONDS, setup.path));
    }
    const figures = rounds.map((each) => ({
      requestsPerSecond: median(each.map((f) => f.requestsPerSecond)),
      p50: median(each.map((f) => f.p50)),
      p99: median(each.map((f) => f.p99)),
      non2xx: each.reduce((sum, f) => sum + f.non2xx, 0),
    }));
    console.log(
      `\npage route: GET / (and the wizard's script) as a returning browser asks for it (cookies, br), ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s in turns after ${WARM_UP_SECONDS} s of warm-up, medians; ` +
        `${PINNED ? 'servers on core 1, load generator on core 0' : 'servers and load generator share the cores'}\n`,
    );
    console.log("| set-up | req/s | vs today's one page | p50 ms | p99 ms | non-2xx |");
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const [index, setup] of setups.entries()) {
      const row = figures[index]!;
      console.log(
        `| ${setup.name} | ${row.requestsPerSecond} | ${Math.round((row.requestsPerSecond / figures[0]!.requestsPerSecond) * 100)} % | ${row.p50} | ${row.p99} | ${row.non2xx} |`,
      );
    }
  } finally {
    for (const server of servers) await stop(server);
    stored.remove();
    empty.remove();
  }
}
