import { useEffect, useId, useRef, useState } from 'react';
import { imageOrigins } from '../../shared/cover-image';
import { isPreviewMessage, previewPath, type PreviewCommand, type PreviewEvent, type PreviewProblem } from '../../shared/preview';

/** The widths the preview shows the page at, in CSS pixels: a phone's and a desktop window's (scaled to fit the pane). */
export const PREVIEW_WIDTHS = { phone: 390, desktop: 1280 } as const;
type Width = keyof typeof PREVIEW_WIDTHS;

/**
 * The live preview beside the editor (src/shared/preview.ts): the real wizard in a frame
 * on the preview route, sent the draft as typed on every change (within a frame: no debounce),
 * once the frame says it listens (`wizard-preview:ready`). Messages are posted to this origin only,
 * and only the frame's own messages from this origin are read. The frame answers with the steps it
 * has, which the step picker offers, and the draft's problems, listed with links to their fields.
 * The frame's Content Security Policy is the saved draft's as it was when the frame loaded (its
 * images' hosts): once a draft naming other image hosts is saved, the frame is loaded again.
 * The frame follows the step being edited (`follow`: sent with each draft), and the step picker
 * follows the frame when the team moves in it (`wizard-preview:navigated`).
 * @param saved - whether the draft shown is the one saved (autosave has nothing pending).
 * @param follow - the step (0-based) whose settings or blocks the last change was in, else undefined.
 * @param onProblem - called with a problem's path when its link is followed.
 */
export function PreviewPane({
  pageId,
  draft,
  saved,
  onProblem,
  follow,
}: {
  pageId: string;
  draft: unknown;
  saved: boolean;
  onProblem: (path: string) => void;
  follow?: number;
}) {
  const frame = useRef<HTMLIFrameElement>(null);
  const box = useRef<HTMLDivElement>(null);
  // How many times the frame said it listens (it says so again after each load): each time, it is sent the draft.
  const [ready, setReady] = useState(0);
  const [rendered, setRendered] = useState<Extract<PreviewEvent, { type: 'wizard-preview:rendered' }>>();
  const [submitted, setSubmitted] = useState(false);
  const [width, setWidth] = useState<Width>('phone');
  const [available, setAvailable] = useState(0);
  // The step asked for with the picker until the frame shows it: the picker keeps it meanwhile, so
  // arrow keys pressed in a row move on from it rather than from the step the frame still shows.
  const [asked, setAsked] = useState<number>();
  const stepId = useId();
  const widthName = useId();
  // The image hosts the frame's policy allows (those of the draft it was loaded with), and how many times it was loaded.
  const origins = typeof draft === 'object' && draft !== null ? imageOrigins(draft).join(' ') : '';
  const [loaded, setLoaded] = useState({ origins, times: 0 });
  if (saved && origins !== loaded.origins) setLoaded({ origins, times: loaded.times + 1 });

  const post = (command: PreviewCommand) => frame.current?.contentWindow?.postMessage(command, location.origin);

  useEffect(() => {
    const receive = (event: MessageEvent) => {
      if (event.origin !== location.origin || event.source !== frame.current?.contentWindow || !isPreviewMessage(event.data)) return;
      const message = event.data as PreviewEvent;
      if (message.type === 'wizard-preview:ready') setReady((count) => count + 1);
      else if (message.type === 'wizard-preview:rendered') {
        setRendered(message);
        // The step asked for is kept until the frame shows it: an answer to an earlier command does not undo a later one.
        setAsked((before) => (before === message.step ? undefined : before));
        setSubmitted(false);
      } else if (message.type === 'wizard-preview:submitted') setSubmitted(true);
      else if (message.type === 'wizard-preview:navigated')
        setRendered((before) => (before ? { ...before, step: message.step, steps: message.steps } : before));
    };
    window.addEventListener('message', receive);
    return () => window.removeEventListener('message', receive);
  }, []);

  // Every change of the draft, and the frame's (re)load: the draft goes at the next frame.
  useEffect(() => {
    if (ready === 0) return;
    const handle = requestAnimationFrame(() => {
      // A draft sent with the step being edited moves the frame there: the picker follows it.
      if (follow !== undefined) setAsked(undefined);
      frame.current?.contentWindow?.postMessage(
        { type: 'wizard-preview:config', config: draft, ...(follow === undefined ? {} : { step: follow }) } satisfies PreviewCommand,
        location.origin,
      );
    });
    return () => cancelAnimationFrame(handle);
    // `follow` changes with the draft (the same change): the draft's change sends it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [draft, ready]);

  // The desktop width is scaled down to the pane's.
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setAvailable(entry?.contentRect.width ?? 0));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const frameWidth = PREVIEW_WIDTHS[width];
  const scale = available > 0 && available < frameWidth ? available / frameWidth : 1;
  const frameHeight = width === 'phone' ? 760 : 800;
  const steps = rendered?.steps ?? 0;
  const problems: PreviewProblem[] = rendered?.problems ?? [];
  return (
    <section className="preview-pane" aria-labelledby={`${stepId}-heading`}>
      <h2 id={`${stepId}-heading`}>Preview</h2>
      <div className="preview-controls">
        <fieldset className="segmented">
          <legend>Width</legend>
          {(Object.keys(PREVIEW_WIDTHS) as Width[]).map((key) => (
            <label key={key} className="check">
              <input type="radio" name={widthName} value={key} checked={width === key} onChange={() => setWidth(key)} />
              {key === 'phone'
                ? `Phone (${PREVIEW_WIDTHS.phone} px)`
                : `Desktop (${PREVIEW_WIDTHS.desktop} px${scale < 1 && width === 'desktop' ? `, shown at ${Math.round(scale * 100)} %` : ''})`}
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor={stepId}>Step shown</label>
          <select
            id={stepId}
            value={asked !== undefined ? String(asked) : rendered ? String(rendered.step) : ''}
            disabled={steps === 0}
            onChange={(event) => {
              const step = Number(event.target.value);
              setAsked(step);
              post({ type: 'wizard-preview:step', step });
            }}
          >
            {steps === 0 ? <option value="">Waiting for the preview…</option> : null}
            {Array.from({ length: steps }, (_, step) => (
              <option key={step} value={String(step)}>
                Step {step + 1}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p className="hint" role="status">
        {ready === 0
          ? 'The preview is loading…'
          : rendered && !rendered.rendered
            ? 'The draft cannot be shown as it is: the preview shows the last one it could.'
            : submitted
              ? 'Sent from the preview: nothing was stored.'
              : ''}
      </p>
      <div ref={box} className="preview-box" style={{ height: frameHeight * scale }}>
        <iframe
          key={loaded.times}
          ref={frame}
          title="Preview"
          src={previewPath(pageId)}
          className="preview-frame"
          onLoad={() => setRendered(undefined)}
          style={{ width: frameWidth, height: frameHeight, transform: scale < 1 ? `scale(${scale})` : undefined }}
        />
      </div>
      {problems.length > 0 ? (
        <div className="preview-problems">
          <h3>The preview found {problems.length === 1 ? 'one problem' : `${problems.length} problems`}</h3>
          <ul>
            {problems.map((problem) => (
              <li key={`${problem.path}:${problem.message}`}>
                <a
                  href={`#${problem.path}`}
                  onClick={(event) => {
                    event.preventDefault();
                    onProblem(problem.path);
                  }}
                >
                  {problem.path}
                </a>
                : {problem.message}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
