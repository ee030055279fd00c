import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { WizardConfig } from '../../shared/config';
import { formatMessage } from '../../shared/messages';
import type { ResumeDraft } from '../../shared/resume';
import { isEmail } from '../../shared/rules';
import { XSRF_COOKIE, XSRF_HEADER, readCookie } from '../../shared/xsrf';
import { TextField } from '../controls/text-field';
import { proofFor } from '../services/bot-check';
import { newIdempotencyKey } from '../../shared/idempotency-key';

/** Props of {@link ResumeLater}. */
export interface ResumeLaterProps {
  config: WizardConfig;
  /** The draft as it stands when the link is asked for: the step, every answer, the age screen's. */
  draft: () => ResumeDraft;
  /** The e-mail address typed on the page, if any: the one the link goes to unless changed. */
  email: string;
}

/** Where the form is on its way: typing, sending, sent (what was said), or refused (why). */
type State = { busy?: boolean; sent?: string; error?: string };

/**
 * "Finish on another device" (docs/requirements.md §22; docs/decisions/034), in a chunk of its own
 * loaded when the applicant asks: their e-mail address (the one typed on the page, if any) and
 * "Email me the link". The server keeps the draft, sealed, for 7 days and e-mails a link that opens
 * it on any device (`POST /api/drafts/{pageId}`, with the page's anti-forgery pair and the proof of
 * work of the page's application, which the send then uses too). What it says
 * goes in one status region: sent, until when; or the address's error, at the field.
 */
export function ResumeLater({ config, draft, email: typed }: ResumeLaterProps) {
  const { messages } = config;
  const [address, setAddress] = useState(typed);
  const [state, setState] = useState<State>({});
  const input = useRef<HTMLInputElement | HTMLTextAreaElement>(null);
  // Asked for with a press: the address is what comes next.
  useEffect(() => input.current?.focus(), []);

  const send = async () => {
    const email = address.trim();
    if (state.busy) return;
    if (!isEmail(email)) return setState({ error: email === '' ? messages.required : messages.email });
    setState({ busy: true });
    try {
      // A proof of work of its own (docs/decisions/032): a link is an e-mail to any address, and the
      // server takes one solution for one link only, under a key of its own (not the application's).
      const key = newIdempotencyKey();
      const proof = await proofFor(key, config.pageId);
      const response = await fetch(`/api/drafts/${encodeURIComponent(config.pageId)}`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          [XSRF_HEADER]: readCookie(XSRF_COOKIE) ?? '',
          'Idempotency-Key': key,
          ...(proof ? { Altcha: proof } : {}),
        },
        body: JSON.stringify({ email, ...draft() }),
      });
      if (response.status === 202) {
        const { expiresAt } = (await response.json()) as { expiresAt: string };
        const date = new Intl.DateTimeFormat([config.lang, 'en'], { dateStyle: 'long' }).format(new Date(expiresAt));
        return setState({ sent: formatMessage(messages.resumeLaterSent, { email, date }) });
      }
      setState({ error: response.status === 429 ? messages.resumeLaterTooMany : response.status === 400 ? messages.email : messages.submitError });
    } catch {
      setState({ error: messages.submitError });
    }
  };

  // Enter in the address sends the link, not the step (the field is inside the step's form).
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    void send();
  };

  return (
    <div className="resume-later" onKeyDown={onKeyDown}>
      <p>{messages.resumeLaterIntro}</p>
      <TextField
        id="resume-later-email"
        name="resumeLater.email"
        label={messages.resumeLaterEmailLabel}
        value={address}
        onChange={(value) => {
          setAddress(value);
          if (state.error) setState({});
        }}
        error={state.error}
        type="email"
        inputMode="email"
        autoComplete="email"
        inputRef={input}
      />
      <button type="button" className="button button-secondary" onClick={() => void send()} aria-disabled={state.busy || undefined}>
        {messages.resumeLaterSend}
      </button>
      <p className="resume-later-sent" role="status">
        {state.sent}
      </p>
    </div>
  );
}
