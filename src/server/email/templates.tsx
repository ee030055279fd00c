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
import type { EmailPreview } from '../../shared/emails';
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
