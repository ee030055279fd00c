import { Body } from '@react-email/body';
import { Container } from '@react-email/container';
import { Head } from '@react-email/head';
import { Heading } from '@react-email/heading';
import { Hr } from '@react-email/hr';
import { Html } from '@react-email/html';
import { Link } from '@react-email/link';
import { Preview } from '@react-email/preview';
import { render, toPlainText } from '@react-email/render';
import { Section } from '@react-email/section';
import { Text } from '@react-email/text';
import type { ReactNode } from 'react';
import type { LabelledAnswer } from '../../shared/admin';
import { applicantEmailTexts, defaultEmailTexts, fillPlaceholders, type ApplicantEmail, type EmailPreview } from '../../shared/emails';
import type { WizardConfig } from '../../shared/config';

/**
 * The messages' HTML and plain text (docs/email.md), made with React Email: one layout of
 * e-mail-safe markup (tables, inline styles) with the document's language, a heading, and a
 * footer saying why it was sent. The plain text is the HTML's, converted. Loaded on the first
 * message a process makes (`import()`), not at start: the renderer is tens of ms and MiB.
 */

const styles = {
  body: { backgroundColor: '#f4f4f5', fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif', color: '#18181b', margin: 0 },
  container: { backgroundColor: '#ffffff', margin: '24px auto', padding: '24px', maxWidth: '560px', borderRadius: '8px' },
  heading: { fontSize: '22px', lineHeight: '1.3', margin: '0 0 16px' },
  text: { fontSize: '16px', lineHeight: '1.5', margin: '0 0 12px' },
  label: { fontSize: '14px', lineHeight: '1.4', margin: '12px 0 0', color: '#3f3f46', fontWeight: 600 },
  answer: { fontSize: '16px', lineHeight: '1.4', margin: '2px 0 0' },
  footer: { fontSize: '13px', lineHeight: '1.5', color: '#52525b', margin: '8px 0 0' },
  link: { color: '#1d4ed8', textDecoration: 'underline' },
} as const;

/** The frame of every message: language, preview line, heading, content, footer. */
function Layout(props: { lang: string; subject: string; children: ReactNode; footer: ReactNode }) {
  return (
    <Html lang={props.lang} dir="ltr">
      <Head>
        <title>{props.subject}</title>
      </Head>
      <Preview>{props.subject}</Preview>
      <Body style={styles.body}>
        <Container style={styles.container}>
          <main>
            <Heading as="h1" style={styles.heading}>
              {props.subject}
            </Heading>
            {props.children}
          </main>
          <Hr />
          <footer>{props.footer}</footer>
        </Container>
      </Body>
    </Html>
  );
}

/** `text` as paragraphs: split at blank lines, single line breaks kept. */
function Paragraphs({ text }: { text: string }) {
  return (
    <>
      {text
        .split(/\n\s*\n/)
        .filter((paragraph) => paragraph.trim() !== '')
        .map((paragraph, index) => (
          <Text key={index} style={styles.text}>
            {paragraph.split('\n').map((line, at) => (
              <span key={at}>
                {at > 0 && <br />}
                {line}
              </span>
            ))}
          </Text>
        ))}
    </>
  );
}

/** Renders `element` to the HTML and plain text of a message. */
async function both(element: ReactNode): Promise<{ html: string; text: string }> {
  const html = await render(element);
  return { html, text: toPlainText(html) };
}

/** What an applicant's message is made from. */
export interface ApplicantEmailInput {
  kind: ApplicantEmail;
  config: Pick<WizardConfig, 'title' | 'lang' | 'emails' | 'privacyUrl' | 'footerLinks'>;
  person: { firstName: string; lastName: string; email: string };
  /** The answers, labelled (the confirmation lists them). */
  answers: readonly LabelledAnswer[];
  /** Absolute URLs need no base; a path is made absolute against it (`PUBLIC_URL`). */
  publicUrl: string;
}

/** The page's privacy notice: `privacyUrl`, else a footer link that names privacy; absolute. */
export function privacyLink(config: ApplicantEmailInput['config'], publicUrl: string): string | undefined {
  const url = config.privacyUrl ?? config.footerLinks.find((link) => /privacy|confidentialit|datenschutz|privacidad/i.test(`${link.text} ${link.url}`))?.url;
  return url === undefined ? undefined : new URL(url, publicUrl).toString();
}

/**
 * An applicant's message (the confirmation, or a decision's): the page's texts (or its language's
 * defaults) with the placeholders filled, the answers (the confirmation), the privacy link, in the
 * page's language.
 */
export async function applicantEmail(input: ApplicantEmailInput): Promise<EmailPreview> {
  const { config, person, kind } = input;
  const values = { firstName: person.firstName, lastName: person.lastName, email: person.email, campaign: config.title };
  const texts = applicantEmailTexts(config.emails, config.lang, kind);
  const frame = defaultEmailTexts(config.lang).frame;
  const subject = fillPlaceholders(texts.subject, values);
  const privacy = privacyLink(config, input.publicUrl);
  const { html, text } = await both(
    <Layout
      lang={config.lang}
      subject={subject}
      footer={
        <>
          <Text style={styles.footer}>{fillPlaceholders(frame.why, values)}</Text>
          {privacy && (
            <Text style={styles.footer}>
              <Link href={privacy} style={styles.link}>
                {frame.privacy}
              </Link>
            </Text>
          )}
        </>
      }
    >
      <Paragraphs text={fillPlaceholders(texts.body, values)} />
      {kind === 'confirmation' && input.answers.length > 0 && (
        <Section>
          <Heading as="h2" style={{ ...styles.heading, fontSize: '18px', margin: '16px 0 4px' }}>
            {frame.answers}
          </Heading>
          <dl style={{ margin: 0 }}>
            {input.answers.map((answer) => (
              <div key={answer.key}>
                <dt style={styles.label}>{answer.label}</dt>
                <dd style={{ ...styles.answer, marginLeft: 0 }}>{answer.text ?? answer.value}</dd>
              </div>
            ))}
          </dl>
        </Section>
      )}
    </Layout>,
  );
  return { subject, html, text };
}

/** A team message's footer: why it was sent and how to stop it. */
function TeamFooter({ why, unsubscribeUrl, settingsUrl }: { why: string; unsubscribeUrl?: string; settingsUrl: string }) {
  return (
    <Text style={styles.footer}>
      {why}{' '}
      {unsubscribeUrl && (
        <>
          <Link href={unsubscribeUrl} style={styles.link}>
            Unsubscribe
          </Link>{' '}
          or{' '}
        </>
      )}
      <Link href={settingsUrl} style={styles.link}>
        change your notification settings
      </Link>
      .
    </Text>
  );
}

/** A team member's notification of one new application: who applied to which page, and the link to it. */
export async function notificationEmail(input: {
  campaign: string;
  name: string;
  applicationUrl: string;
  unsubscribeUrl: string;
  settingsUrl: string;
}): Promise<EmailPreview> {
  const subject = `New application to ${input.campaign}: ${input.name}`;
  const { html, text } = await both(
    <Layout
      lang="en"
      subject={subject}
      footer={
        <TeamFooter
          why={`You receive this because you asked to hear of each application to ${input.campaign}.`}
          unsubscribeUrl={input.unsubscribeUrl}
          settingsUrl={input.settingsUrl}
        />
      }
    >
      <Text style={styles.text}>
        {input.name} applied to {input.campaign}.
      </Text>
      <Text style={styles.text}>
        <Link href={input.applicationUrl} style={styles.link}>
          Open the application in the inbox
        </Link>
      </Text>
    </Layout>,
  );
  return { subject, html, text };
}

/** A team member's daily digest: the new applications of each page on the digest, counted, with a link to each page's list. */
export async function digestEmail(input: {
  pages: readonly { title: string; count: number; url: string }[];
  unsubscribeUrl: string;
  settingsUrl: string;
}): Promise<EmailPreview> {
  const total = input.pages.reduce((sum, page) => sum + page.count, 0);
  const subject = `${total} new application${total === 1 ? '' : 's'} in the last 24 hours`;
  const { html, text } = await both(
    <Layout
      lang="en"
      subject={subject}
      footer={
        <TeamFooter why="You receive this daily digest for the pages you follow." unsubscribeUrl={input.unsubscribeUrl} settingsUrl={input.settingsUrl} />
      }
    >
      <ul style={{ paddingLeft: '20px', margin: '0 0 12px' }}>
        {input.pages.map((page) => (
          <li key={page.url} style={styles.text}>
            <Link href={page.url} style={styles.link}>
              {page.title}
            </Link>
            : {page.count} new
          </li>
        ))}
      </ul>
    </Layout>,
  );
  return { subject, html, text };
}

/** An editor's message that a webhook endpoint was disabled, and why. */
export async function endpointDisabledEmail(input: { url: string; reason: string; integrationsUrl: string }): Promise<EmailPreview> {
  const subject = 'A webhook endpoint was disabled';
  const { html, text } = await both(
    <Layout lang="en" subject={subject} footer={<Text style={styles.footer}>You receive this because you are an editor of the inbox.</Text>}>
      <Text style={styles.text}>
        The endpoint {input.url} receives no more events: {input.reason}
      </Text>
      <Text style={styles.text}>
        Its deliveries wait. Once the receiver works again,{' '}
        <Link href={input.integrationsUrl} style={styles.link}>
          turn the endpoint on in Integrations
        </Link>{' '}
        and replay what failed.
      </Text>
    </Layout>,
  );
  return { subject, html, text };
}
