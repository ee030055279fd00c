/**
 * `npm run admin -- <command>`: the inbox's accounts (requirements §17), on
 * the database of `DATABASE_URL` (the server's default when unset).
 *
 *   create-user <email> [--role owner|editor|viewer]
 *                                                asks for a password (twice at a terminal); the
 *                                                first account is the owner whatever the role asked
 *   reset-password <email>                       asks for a new one; ends the user's sessions and reset links
 *   set-role <email> owner|editor|viewer         (recovery: the team's owners do it in the inbox)
 *   remove-second-factor <email>                 (recovery: a member who lost their app and codes)
 *   list-users
 *   delete-user <email>                          ends the user's sessions too; never the last owner
 *   prune-uploads [--older-than-hours N] [--dry-run]
 *                                                deletes the uploaded images no page names
 *   export-person <email>                        everything kept about the person who applied as
 *                                                <email>, on every page, as JSON on standard output
 *   erase-person <email> [--yes]                 erases it all (docs/privacy.md); at a terminal, says how
 *                                                many applications will go and asks for a yes first
 *   backup <dir>                                 the database and the uploads into a new directory,
 *                                                safe while the server runs (scripts/backup.ts)
 *   restore <dir>                                a backup into a new database and the uploads directory
 *
 * prune-uploads: the uploads directory (`UPLOADS_DIR`, else beside the SQLite
 * database, else ./data/uploads) keeps every image ever uploaded; this deletes those that no
 * stored page's draft or published version, and not the default page's file (`WIZARD_CONFIG`),
 * names, once they are older than N hours (default 24: an image just uploaded is named by its
 * draft once the builder has saved it). With several server processes sharing the directory, run
 * it once, anywhere the directory is mounted.
 *
 * At a terminal the password is read without echo; otherwise the first line of
 * standard input is the password, so scripts can create users. Passwords
 * are held to the inbox's rule (at least 12 characters, not a common or breached one). Exits 0 on success, 1 with a
 * one-line message otherwise.
 */
import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { read } from 'read';
import { ADMIN_ROLES, type AdminRole } from '../src/shared/admin';
import { passwordProblem } from '../src/server/inbox/password-policy';
import { personErasedSentence } from '../src/shared/person';
import { isEmail } from '../src/shared/rules';
import { hashPassword } from '../src/server/inbox/password';
import { parseEnv } from '../src/server/env';
import { openStore } from '../src/server/store/store';
import { parseDatabaseUrl } from '../src/server/store/connection';
import { erasePerson, exportPerson, personErasure } from '../src/server/inbox/person';
import { PageVersionLabels } from '../src/server/inbox/page-versions';
import { loadWizardConfig } from '../src/server/load-config';
import type { WizardConfig } from '../src/shared/config';
import { UserExistsError } from '../src/server/store/users';
import type { Actor } from '../src/server/store/team';

/** Who the team's audit log says made a change from here. */
const COMMAND_LINE: Actor = { email: 'command line', address: 'command line' };
import { pruneUploads, uploadHashesIn, uploadsDirOf } from '../src/server/uploads';

const USAGE =
  'usage: npm run admin -- create-user <email> [--role owner|editor|viewer] | reset-password <email> | set-role <email> owner|editor|viewer | remove-second-factor <email> | list-users | delete-user <email> | prune-uploads [--older-than-hours N] [--dry-run] | export-person <email> | erase-person <email> [--yes] | backup <dir> | restore <dir>';

/** How old an image no page names must be before prune-uploads deletes it, in hours, unless told. */
const PRUNE_GRACE_HOURS = 24;

class UsageError extends Error {}

/** A new password for `email`, read as the file's header says and held to the inbox's rule (inbox/password-policy.ts). */
async function readPassword(email: string): Promise<string> {
  let password: string;
  if (process.stdin.isTTY) {
    password = await read({ prompt: 'Password: ', silent: true, replace: '' });
    const again = await read({ prompt: 'Password again: ', silent: true, replace: '' });
    if (again !== password) throw new UsageError('The two passwords differ.');
  } else {
    password = (await text(process.stdin)).split(/\r?\n/)[0] ?? '';
  }
  const problem = await passwordProblem(password, email);
  if (problem) throw new UsageError(problem);
  return password;
}

function emailArgument(value: string | undefined): string {
  // Trimmed first, as the inbox's API takes it: a copied address often carries a space.
  const address = value?.trim();
  if (!address || !isEmail(address)) throw new UsageError(`Expected an e-mail address.\n${USAGE}`);
  return address.toLowerCase();
}

function roleArgument(value: string | undefined): AdminRole {
  if (!ADMIN_ROLES.includes(value as AdminRole)) throw new UsageError(`The role must be one of ${ADMIN_ROLES.join(', ')}.`);
  return value as AdminRole;
}

/** The account of `email`. @throws UsageError when there is none. */
async function userOf(store: Awaited<ReturnType<typeof openStore>>, email: string) {
  const found = await store.users.findUserForSignIn(email);
  if (!found) throw new UsageError(`There is no user ${email}.`);
  return found.user;
}

/** Runs a command; resolves with what it says on standard output, or undefined when it said it already. */
async function main(args: string[]): Promise<string | undefined> {
  const [command, ...rest] = args;
  const env = parseEnv(process.env);
  const run = async <T>(work: (store: Awaited<ReturnType<typeof openStore>>) => Promise<T>) => {
    // Beside a running server: leave a pending scrub of erasures to it (docs/decisions/005).
    const store = await openStore(env.DATABASE_URL, { scrubOnOpen: false });
    try {
      return await work(store);
    } finally {
      await store.close();
    }
  };
  switch (command) {
    case 'create-user': {
      const email = emailArgument(rest[0]);
      const role = roleArgument(rest.includes('--role') ? rest[rest.indexOf('--role') + 1] : 'editor');
      const hash = await hashPassword(await readPassword(email));
      // There is always an owner: the first account is one (docs/inbox.md, "The team").
      const created = await run(async (store) => {
        const user = await store.users.createUser(email, hash, (await store.users.hasOwner()) ? role : 'owner');
        await store.team.record(COMMAND_LINE, { kind: 'member-added', subject: user.email, detail: user.role });
        return user;
      });
      return `Created ${email} (${created.role}${created.role === role ? '' : ': the first account is the owner'}).`;
    }
    case 'reset-password': {
      const email = emailArgument(rest[0]);
      const hash = await hashPassword(await readPassword(email));
      await run(async (store) => {
        if (!(await store.team.resetPassword(email, hash, COMMAND_LINE))) throw new UsageError(`There is no user ${email}.`);
      });
      return `Changed the password of ${email}; their sessions have ended and their reset links no longer work.`;
    }
    case 'set-role': {
      const email = emailArgument(rest[0]);
      const role = roleArgument(rest[1]);
      await run(async (store) => store.team.changeRole((await userOf(store, email)).id, role, COMMAND_LINE));
      return `${email} is now ${role}.`;
    }
    case 'remove-second-factor': {
      const email = emailArgument(rest[0]);
      await run(async (store) => store.team.removeSecondFactors((await userOf(store, email)).id, COMMAND_LINE, email));
      return `Removed ${email}'s authenticator app, recovery codes and passkeys; they sign in with their password (and enrol again where the team requires it).`;
    }
    case 'list-users': {
      const users = await run((store) => store.users.listUsers());
      if (users.length === 0) return 'No users yet: npm run admin -- create-user <email>';
      return users.map((user) => `${user.email}\t${user.role}\tcreated ${user.createdAt}`).join('\n');
    }
    case 'delete-user': {
      const email = emailArgument(rest[0]);
      await run(async (store) => store.team.remove((await userOf(store, email)).id, COMMAND_LINE));
      return `Deleted ${email}.`;
    }
    case 'prune-uploads': {
      const at = rest.indexOf('--older-than-hours');
      const hours = at >= 0 ? Number(rest[at + 1]) : PRUNE_GRACE_HOURS;
      if (!Number.isFinite(hours) || hours < 0) throw new UsageError(`--older-than-hours takes a number of hours (0 or more).\n${USAGE}`);
      const dryRun = rest.includes('--dry-run');
      const texts = await run((store) => store.pages.configurationTexts());
      const defaultPage = await readFile(env.WIZARD_CONFIG, 'utf8').catch(() => '');
      const named = new Set([...texts, defaultPage].flatMap(uploadHashesIn));
      const dir = uploadsDirOf(env.DATABASE_URL, env.UPLOADS_DIR);
      const { removed, kept } = await pruneUploads(dir, named, { olderThanMs: hours * 3_600_000, dryRun });
      const files = (count: number) => `${count} file${count === 1 ? '' : 's'}`;
      if (removed.length === 0) return `Nothing to delete in ${dir}: ${files(kept)} named by a page or newer than ${hours} h.`;
      return `${dryRun ? 'Would delete' : 'Deleted'} ${files(removed.length)} no page names from ${dir} (${files(kept)} kept):\n${removed.join('\n')}`;
    }
    case 'export-person': {
      const email = emailArgument(rest[0]);
      const document = await run(async (store) => {
        // The questions each answer answered: the default page by its file, a stored page by its versions.
        const defaults = new Map<string, WizardConfig>();
        try {
          const config = loadWizardConfig(env.WIZARD_CONFIG);
          defaults.set(config.pageId, config);
        } catch {
          // No default page file: its applications' answers are labelled by their keys.
        }
        return exportPerson(store, new PageVersionLabels(defaults, store.pages), email, Date.now(), 'command line (export-person)');
      });
      return JSON.stringify(document, null, 2);
    }
    case 'erase-person': {
      const email = emailArgument(rest[0]);
      // A SQLite file (`sqlite:…` or a plain path) is scrubbed after the erasure: docs/decisions/005.
      const scrubbed = parseDatabaseUrl(env.DATABASE_URL).dialect === 'sqlite';
      const erased = await run(async (store) => {
        // At a terminal, what will go is said first and a yes is asked for: an erasure cannot be undone.
        if (process.stdin.isTTY && !rest.includes('--yes')) {
          const { applications, held } = await personErasure(store, email);
          const found = applications.length + held.length;
          if (found === 0) return 0;
          const answer = await read({
            prompt: `Erase ${found} application${found === 1 ? '' : 's'} of ${email} on every page, with their answers, notes, tags, e-mails and webhook deliveries? This cannot be undone. [y/N] `,
          });
          if (!/^y(es)?$/i.test(answer.trim())) throw new UsageError('Nothing erased.');
        }
        const count = await erasePerson(store, email, 'command line (erase-person)');
        // Said once committed: nothing of it is readable any more. On SQLite the store then
        // rewrites the file so that no byte of it stays on the disk (docs/decisions/005), which
        // takes as long as copying the file (about two minutes for 9 GB): said while it runs.
        if (count > 0 && scrubbed) {
          console.log(personErasedSentence(email, count));
          console.error('Scrubbing the database file so that no byte of them stays on the disk (a rewrite of the whole file)…');
        }
        return count;
      });
      if (erased > 0 && scrubbed) {
        console.error('Scrubbed.');
        return undefined;
      }
      return personErasedSentence(email, erased);
    }
    case 'backup':
    case 'restore': {
      if (!rest[0]) throw new UsageError(`Expected a directory.\n${USAGE}`);
      // Loaded for these two commands only: the others start as before.
      const { backup, restore } = await import('./backup');
      const uploads = uploadsDirOf(env.DATABASE_URL, env.UPLOADS_DIR);
      const files = (count: number) => `${count} upload${count === 1 ? '' : 's'}`;
      if (command === 'backup') {
        const made = await backup(env.DATABASE_URL, uploads, rest[0]);
        return `Backed up ${made.applications} applications (${made.store}, ${made.createdAt}) and ${files(made.uploads)} into ${rest[0]}.`;
      }
      const restored = await restore(rest[0], env.DATABASE_URL, uploads);
      return `Restored ${restored.applications} applications (backup of ${restored.createdAt}) and ${files(restored.uploads)} into ${uploads}.`;
    }
    default:
      throw new UsageError(USAGE);
  }
}

main(process.argv.slice(2)).then(
  (message) => {
    if (message !== undefined) console.log(message);
    process.exit(0);
  },
  (error: unknown) => {
    console.error(error instanceof UsageError || error instanceof UserExistsError || error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
