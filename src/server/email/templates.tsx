import { Body } from '@react-email/body';
import { Container } from '@react-email/container';
import { Head } from '@react-email/head';
import { Heading } from '@react-email/heading';
import { Hr } from '@react-email/hr';
import { Html } from '@react-email/html';
import { Link } from '@react-email/link';
import { Preview } from '@react-email/preview';
import { Section } from '@react-email/section';
import { Text } from '@react-email/text';
import { Fragment } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { LabelledAnswer } from '../../shared/admin';
import { applicantEmailTexts, defaultEmailTexts, fillPlaceholders, type ApplicantEmail, type EmailPreview } from '../../shared/emails';
import type { WizardConfig } from '../../shared/config';
import { contentText, type EmailContent, type Run } from './content';

/**
 * The messages (docs/email.md): each is one {@link Message}, a description of what it says, made
 * into HTML with React Email's components (e-mail-safe markup, inline styles, the document's
 * language, a heading, a footer saying why it was sent) and into plain text from the same
 * description. Loaded on the first message a process makes (`import()`), not at start.
 */

const styles = {
  body: { backgroundColor: '#f4f4f5', fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif', color: '#18181b', margin: 0 },
  container: { backgroundColor: '#ffffff', margin: '24px auto', padding: '24px', maxWidth: '560px', borderRadius: '8px' },
  heading: { fontSize: '22px', lineHeight: '1.3', margin: '0 0 16px' },
  subheading: { fontSize: '18px', lineHeight: '1.3', margin: '16px 0 4px' },
  text: { fontSize: '16px', lineHeight: '1.5', margin: '0 0 12px' },
  label: { fontSize: '14px', lineHeight: '1.4', margin: '12px 0 0', color: '#3f3f46', fontWeight: 600 },
  answer: { fontSize: '16px', lineHeight: '1.4', margin: '2px 0 0 0' },
  footer: { fontSize: '13px', lineHeight: '1.5', color: '#52525b', margin: '8px 0 0' },
  link: { color: '#1d4ed8', textDecoration: 'underline' },
} as const;

/** The document type React Email's `render` gives a message (XHTML 1.0 Transitional, what mail clients expect). */
const DOCTYPE = '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">';

/** Runs as markup: a line break for each `\n` of the words. */
function Runs({ runs }: { runs: Run[] }) {
  return (
    <>
      {runs.map((run, index) =>
        typeof run === 'string' ? (
          <Fragment key={index}>
            {run.split('\n').map((line, at) => (
              <Fragment key={at}>
                {at > 0 && <br />}
                {line}
              </Fragment>
            ))}
          </Fragment>
        ) : (
          <Link key={index} href={run.href} style={styles.link}>
            {run.text}
          </Link>
        ),
      )}
    </>
  );
}

/** The HTML of `message`: React Email's components, rendered by React's static renderer. */
function html(message: EmailContent): string {
  const markup = renderToStaticMarkup(
    <Html lang={message.lang} dir="ltr">
      <Head>
        <title>{message.subject}</title>
      </Head>
      <Preview>{message.subject}</Preview>
      <Body style={styles.body}>
        <Container style={styles.container}>
          <main>
            <Heading as="h1" style={styles.heading}>
              {message.subject}
            </Heading>
            {message.paragraphs.map((runs, index) => (
              <Text key={index} style={styles.text}>
                <Runs runs={runs} />
              </Text>
            ))}
            {message.list && message.list.items.length > 0 && (
              <Section>
                <Heading as="h2" style={styles.subheading}>
                  {message.list.heading}
                </Heading>
                <dl style={{ margin: 0 }}>
                  {message.list.items.map((item, index) => (
                    <div key={index}>
                      <dt style={styles.label}>{item.label}</dt>
                      <dd style={styles.answer}>{item.value}</dd>
                    </div>
                  ))}
                </dl>
              </Section>
            )}
          </main>
          <Hr />
          <footer>
            {message.footer.map((runs, index) => (
              <Text key={index} style={styles.footer}>
                <Runs runs={runs} />
              </Text>
            ))}
          </footer>
        </Container>
      </Body>
    </Html>,
  );
  return `${DOCTYPE}${markup}`;
}

/**
 * A message made for its recipient or the inbox: subject, HTML and plain text. React's static
 * renderer rather than React Email's `render` (which streams, waits for suspense and converts the
 * HTML to text with html-to-text): a confirmation costs 0.2 ms of CPU instead of 2.1 ms, on the
 * core that also takes the submissions (docs/decisions/026).
 */
export function renderEmail(content: EmailContent): EmailPreview {
  return { subject: content.subject, html: html(content), text: contentText(content) };
}

/** `text` as paragraphs: split at blank lines. */
function paragraphs(body: string): Run[][] {
  return body
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '')
    .map((paragraph) => [paragraph]);
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
export function applicantEmail(input: ApplicantEmailInput): EmailContent {
  const { config, person, kind } = input;
  const values = { firstName: person.firstName, lastName: person.lastName, email: person.email, campaign: config.title };
  const texts = applicantEmailTexts(config.emails, config.lang, kind);
  const frame = defaultEmailTexts(config.lang).frame;
  const privacy = privacyLink(config, input.publicUrl);
  return {
    lang: config.lang,
    subject: fillPlaceholders(texts.subject, values),
    paragraphs: paragraphs(fillPlaceholders(texts.body, values)),
    list:
      kind === 'confirmation'
        ? { heading: frame.answers, items: input.answers.map((answer) => ({ label: answer.label, value: answer.text ?? answer.value })) }
        : undefined,
    footer: [[fillPlaceholders(frame.why, values)], ...(privacy ? [[{ text: frame.privacy, href: privacy }]] : [])],
  };
}

/** A team message's footer: why it was sent, and how to stop it. */
function teamFooter(why: string, unsubscribeUrl: string | undefined, settingsUrl: string): Run[][] {
  return [
    [why],
    unsubscribeUrl
      ? [{ text: 'Unsubscribe', href: unsubscribeUrl }, ' or ', { text: 'change your notification settings', href: settingsUrl }, '.']
      : [{ text: 'Change your notification settings', href: settingsUrl }, '.'],
  ];
}

/** A team member's notification of one new application: who applied to which page, and the link to it. */
export function notificationEmail(input: {
  campaign: string;
  name: string;
  applicationUrl: string;
  unsubscribeUrl: string;
  settingsUrl: string;
}): EmailContent {
  return {
    lang: 'en',
    subject: `New application to ${input.campaign}: ${input.name}`,
    paragraphs: [[`${input.name} applied to ${input.campaign}.`], [{ text: 'Open the application in the inbox', href: input.applicationUrl }]],
    footer: teamFooter(`You receive this because you asked to hear of each application to ${input.campaign}.`, input.unsubscribeUrl, input.settingsUrl),
  };
}

/** A team member's daily digest: the new applications of each page on the digest, counted, with a link to each page's list. */
export function digestEmail(input: {
  pages: readonly { title: string; count: number; url: string }[];
  unsubscribeUrl: string;
  settingsUrl: string;
}): EmailContent {
  const total = input.pages.reduce((sum, page) => sum + page.count, 0);
  return {
    lang: 'en',
    subject: `${total} new application${total === 1 ? '' : 's'} in the last 24 hours`,
    paragraphs: input.pages.map((page) => [{ text: page.title, href: page.url }, `: ${page.count} new`]),
    footer: teamFooter('You receive this daily digest for the pages you follow.', input.unsubscribeUrl, input.settingsUrl),
  };
}

/** An editor's message that a webhook endpoint was disabled, and why. */
export function endpointDisabledEmail(input: { url: string; reason: string; integrationsUrl: string }): EmailContent {
  return {
    lang: 'en',
    subject: 'A webhook endpoint was disabled',
    paragraphs: [
      [`The endpoint ${input.url} receives no more events: ${input.reason}`],
      [
        'Its deliveries wait. Once the receiver works again, ',
        { text: 'turn the endpoint on in Integrations', href: input.integrationsUrl },
        ' and replay what failed.',
      ],
    ],
    footer: [['You receive this because you are an editor of the inbox.']],
  };
}
