import type { PersonExport } from '../../shared/person';
import { contentText } from '../email/content';
import type { Store } from '../store/store';
import { withWithdrawals } from '../consents';
import { labelledAnswers } from './answers';
import type { PageVersionLabels } from './page-versions';

/**
 * A data-subject request (docs/privacy.md, "A person's data"; GDPR Articles 15 and 17), the same
 * from the inbox and the command line: everything the product holds about the person who applied
 * under an e-mail address, on every page — the applications and their answers, the team's notes,
 * tags and decisions, the e-mails made about them, the events told to webhooks — as one document;
 * or all of it erased through each application's erasure (which reaches the answer index, the
 * tallies, the outbox, the e-mail and delivery logs, and leaves an audit entry without personal data).
 */

/**
 * Everything kept about the person who applied as `email` (any case), oldest application first.
 * @param labels - the pages' questions, by version (what each answer answered).
 * @param now - when the export is made (ms since the epoch).
 * @param actor - who asks (the member's e-mail, or the command line): each application's history records that it was exported.
 */
export async function exportPerson(store: Store, labels: PageVersionLabels, email: string, now: number, actor: string): Promise<PersonExport> {
  const [ids, guardianOf] = await Promise.all([store.applications.idsByEmail(email), store.applications.idsByGuardianEmail(email)]);
  // Who took a copy of whose data, and when, is kept with each application (not the address: the history names none).
  await store.audit.record(
    [...new Set([...ids, ...guardianOf])].map((applicationId) => ({ applicationId, actor, action: 'exported' as const })),
    new Date(now).toISOString(),
  );
  const [emails, deliveries, consents] = await Promise.all([
    store.emails.ofApplications(ids),
    store.webhooks.deliveriesOfApplications(ids),
    store.consents.recordsOf(ids),
  ]);
  const applications: PersonExport['applications'] = [];
  for (const id of ids) {
    const [row, notes, tags] = await Promise.all([store.applications.getApplication(id), store.notes.list(id), store.tags.of(id)]);
    // Erased meanwhile: nothing of it is left to export.
    if (!row) continue;
    const columns = await labels.answerColumns(row);
    applications.push({
      id,
      pageId: row.pageId,
      ...(row.pageVersion === undefined ? {} : { pageVersion: row.pageVersion }),
      receivedAt: row.receivedAt,
      status: row.status,
      answers: withWithdrawals(labelledAnswers(columns, row.payload), consents.get(id) ?? []).map((answer) => ({
        question: answer.label,
        answer: answer.text ?? answer.value,
      })),
      submitted: row.unreadable ? null : row.payload,
      notes: notes.map(({ author, createdAt, updatedAt, text }) => ({ author, createdAt, updatedAt, text })),
      tags: tags.map((tag) => tag.name),
      consents: consents.get(id) ?? [],
      history: row.audit,
      emails: emails
        .filter(({ entry }) => entry.applicationId === id)
        .map(({ entry, content }) => ({
          kind: entry.kind,
          state: entry.state,
          to: entry.to,
          subject: entry.subject,
          text: content ? contentText(content) : '',
          createdAt: entry.createdAt,
          sentAt: entry.sentAt,
        })),
      webhookDeliveries: deliveries
        .filter((delivery) => delivery.applicationId === id)
        .map((delivery) => ({
          type: delivery.type,
          endpoint: delivery.endpoint,
          state: delivery.state,
          attempts: delivery.attempts,
          occurredAt: delivery.occurredAt,
          deliveredAt: delivery.deliveredAt,
        })),
    });
  }
  const address = email.trim().toLowerCase();
  const awaitingGuardian = (await store.guardians.byEmail(address)).map((held) => ({
    id: held.id,
    pageId: held.pageId,
    as: held.email === address ? ('applicant' as const) : ('guardian' as const),
    receivedAt: held.receivedAt,
    expiresAt: held.expiresAt,
    submitted: held.payload,
  }));
  const consentedAsGuardian: PersonExport['consentedAsGuardian'] = [];
  const guardianConsents = await store.consents.recordsOf(guardianOf);
  for (const id of guardianOf) {
    const row = await store.applications.findById(id);
    if (!row) continue;
    const given = (row.payload as { guardian?: { name?: unknown; emailAddress?: unknown } } | null)?.guardian;
    consentedAsGuardian.push({
      id,
      pageId: row.pageId,
      receivedAt: row.receivedAt,
      guardian: { name: String(given?.name ?? ''), emailAddress: String(given?.emailAddress ?? '') },
      consent: guardianConsents.get(id)?.find((record) => record.source === 'guardian') ?? null,
    });
  }
  const resumeDrafts = (await store.resumeDrafts.byEmail(address)).map((draft) => ({
    id: draft.id,
    pageId: draft.pageId,
    createdAt: draft.createdAt,
    expiresAt: draft.expiresAt,
  }));
  return {
    about: { email: address, exportedAt: new Date(now).toISOString(), format: 'person-export/1' },
    applications,
    awaitingGuardian,
    consentedAsGuardian,
    resumeDrafts,
  };
}

/**
 * Erases every application given as `email` (any case), on every page, each as the inbox's
 * erasure does, audited as erased by `actor` (no personal data in the audit); every minor's
 * application held for a guardian's answer that the address gave or names as the guardian's; and
 * every minor's application the address consented to as their parent or guardian (the consent
 * that let it be kept goes with the person who gave it).
 * @returns how many applications were erased.
 * @throws the store's error (those erased before it stay erased; the request can be made again).
 */
export async function erasePerson(store: Store, email: string, actor: string): Promise<number> {
  let erased = 0;
  const { applications, held, drafts } = await personErasure(store, email);
  for (const id of applications) if (await store.applications.eraseApplication(id, actor)) erased++;
  for (const id of held) if (await store.guardians.erase(id)) erased++;
  // Not applications: erased with the rest, not counted.
  for (const id of drafts) await store.resumeDrafts.erase(id);
  // What is left of the links asked for their mailbox: its hash, for the day's count.
  await store.resumeDrafts.forgetMailbox(email);
  return erased;
}

/**
 * What {@link erasePerson} erases for `email` (any case): the applications given as it, and those it
 * consented to as a minor's parent or guardian (their consent is what let them be kept: it goes with
 * their data); and the minors' applications held for a guardian's answer that it gave or names as
 * the guardian's. Said before an erasure at a terminal (`erase-person`). And the drafts kept for
 * another device whose link went to it (requirements §22), with their e-mail's content.
 */
export async function personErasure(store: Store, email: string): Promise<{ applications: string[]; held: string[]; drafts: string[] }> {
  const [own, consented, held, drafts] = await Promise.all([
    store.applications.idsByEmail(email),
    store.applications.idsByGuardianEmail(email),
    store.guardians.byEmail(email),
    store.resumeDrafts.byEmail(email),
  ]);
  return {
    applications: [...new Set([...own, ...consented])],
    held: held.map((application) => application.id),
    drafts: drafts.map((draft) => draft.id),
  };
}
