import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { WizardConfig } from '../../shared/config';
import { submitOriginProblem } from '../../shared/urls';
import type { Clock } from '../clock';
import { choiceQuestionKeys } from '../inbox/answers';
import { PageRegistry } from '../page-registry';
import type { Store } from '../store/store';
import { XsrfTokens } from '../xsrf';
import { FilePages } from '../file-pages';

declare module 'fastify' {
  interface FastifyInstance {
    /** The store's repositories (applications, users and sessions, audit, funnel). */
    store: Store;
    /** The default page (`config/wizard.json`), by its `pageId`. */
    pages: ReadonlyMap<string, WizardConfig>;
    /** The stored pages with a published version, in memory. */
    pageRegistry: PageRegistry;
    /** Every server's file pages on this database, this one's first (the inbox labels any of them). */
    filePages: FilePages;
    /** Signs and checks the anti-forgery tokens (decision 007). */
    xsrf: XsrfTokens;
    /** The time now, in ms (injected in tests). */
    clock: Clock;
    /**
     * The origins a page's `requestUrl` may send applications to besides this server
     * (`SUBMIT_ORIGINS_ALLOWED`; none by default): judged at publish and in the preview.
     */
    submitOrigins: readonly string[];
  }
}

/**
 * What the routes share, as decorators: the `store`, the `pages` by id (the default page), the
 * `pageRegistry` of stored pages (loaded here; on PostgreSQL kept up to date with the other
 * processes' changes by a listening connection, closed with the app; a version whose `requestUrl`
 * is on an origin not in `submitOrigins` is not served), the `xsrf` tokens (signed with `secret`,
 * or the key the store keeps), the `clock`, the `submitOrigins`; and cookie parsing.
 */
export const services = fp(
  async (
    app: FastifyInstance,
    options: { store: Store; configs: readonly WizardConfig[]; secret?: string | undefined; clock: Clock; submitOrigins?: readonly string[] | undefined },
  ) => {
    const submitOrigins = options.submitOrigins ?? [];
    app.decorate('store', options.store);
    app.decorate('pages', new Map(options.configs.map((config) => [config.pageId, config])));
    app.decorate('submitOrigins', submitOrigins);
    const changes = options.store.pageChanges;
    const announce =
      changes && ((id: string) => changes.notify(id).catch((error: unknown) => app.log.warn({ err: error, pageId: id }, 'page change not announced')));
    // A version published before the operator's list changed (or before the rule) that sends its
    // applications to another origin is not served: no applicant's answers go where the operator
    // does not allow.
    // Which questions of each page served are counted per value in the tallies (its choices; a
    // free text would add a tally row per applicant): recorded before the page takes applications.
    // A failure (a full disk) changes no count, only which are kept: logged, and tried again at the next start.
    const countChoices = (pageId: string, config: WizardConfig) =>
      options.store.applications.countAnswersPerValue(pageId, choiceQuestionKeys(config)).then(
        () => undefined,
        (error: unknown) => app.log.warn({ err: error, pageId }, 'the questions counted per value were not recorded'),
      );
    await Promise.all(options.configs.map((config) => countChoices(config.pageId, config)));
    const registry = new PageRegistry(
      options.store.pages,
      announce,
      (config) => submitOriginProblem(config.requestUrl, submitOrigins) === undefined,
      (page) => countChoices(page.id, page.config),
    );
    if (changes) {
      // Listening before the first load: a change committed in between is read by one or the other.
      const listener = await changes.listen({
        changed: (id) => void registry.reload(id).catch((error: unknown) => app.log.warn({ err: error, pageId: id }, 'page reload failed')),
        missed: () => void registry.load().catch((error: unknown) => app.log.warn({ err: error }, 'pages reload failed')),
        error: (error) => app.log.warn({ err: error }, 'page changes: listening connection failed'),
      });
      app.addHook('onClose', () => listener.close());
    }
    await registry.load();
    app.decorate('pageRegistry', registry);
    // This server's file pages recorded for the other servers on the database, theirs read
    // (docs/decisions/034): a failure to record (a full disk) is logged; the next start records them.
    const filePages = new FilePages(app.pages, options.store.pages, options.clock);
    await filePages.start().catch((error: unknown) => app.log.warn({ err: error }, 'the file pages were not recorded'));
    app.decorate('filePages', filePages);
    app.decorate('xsrf', new XsrfTokens(options.secret ?? (await options.store.secrets.get('xsrf'))));
    app.decorate('clock', options.clock);
    await app.register(fastifyCookie);
  },
  { name: 'services' },
);
