import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message an {@link SmtpReceiver} took: as parsed by mailparser, and the envelope's recipients. */
export interface ReceivedEmail {
  mail: ParsedMail;
  to: string[];
  /** The raw message. */
  raw: string;
}

/** A real SMTP server on loopback (the smtp-server package), as an operator's relay would be: it records every message and answers as told. */
export interface SmtpReceiver {
  /** `smtp://user:password@127.0.0.1:<port>` (the server asks for those credentials). */
  url: string;
  received: ReceivedEmail[];
  /** How the next messages are answered, in order (then accepted): an SMTP reply code with its text (`451`: try later; `550`: refused). */
  answers: { code: number; message: string }[];
  /** Waits until at least `count` messages have arrived (polling, up to `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedEmail[]>;
  close(): Promise<void>;
}

export const SMTP_USER = 'relay-user';
export const SMTP_PASSWORD = 'relay password';

/** Starts an {@link SmtpReceiver} on a free loopback port; it takes a message only after authentication. */
export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const receiver: Omit<SmtpReceiver, 'url'> = {
    received: [],
    answers: [],
    async waitFor(count, timeoutMs = 10_000) {
      const until = performance.now() + timeoutMs;
      while (receiver.received.length < count) {
        if (performance.now() > until) throw new Error(`the SMTP server had ${receiver.received.length} messages, not ${count}, after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return receiver.received;
    },
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = new SMTPServer({
    // Plain SMTP on loopback: no certificate to make; nodemailer sends AUTH PLAIN over it.
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    // Closed at a test's end, with the product's pooled connections still open: ended at once, not
    // after smtp-server's default 30 s wait for them (which every test file with e-mail spent).
    closeTimeout: 50,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const answer = receiver.answers.shift();
        if (answer) {
          const error = Object.assign(new Error(answer.message), { responseCode: answer.code });
          callback(error);
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw).then(
          (mail) => {
            receiver.received.push({ mail, raw, to: session.envelope.rcptTo.map((address) => address.address) });
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = (server as unknown as { server: { address(): AddressInfo } }).server.address();
  return Object.assign(receiver, { url: `smtp://${SMTP_USER}:${encodeURIComponent(SMTP_PASSWORD)}@127.0.0.1:${port}` });
}
