import { Activity, Suspense, useEffect, useEffectEvent, useMemo, useRef, useState, type ComponentType, type Dispatch } from 'react';
import { GuardianReview, guardianChunk } from './age-screen-lazy';
import { FormProvider, useForm, useWatch } from 'react-hook-form';
import { buildPayload, type AgeScreenAnswers } from '../../shared/build-payload';
import type { WizardConfig } from '../../shared/config';
import { sendingStepIndex } from '../../shared/steps';
import { loadRulesFor, validateTargets, validationTargets } from '../../shared/validation';
import type { Analytics } from '../services/analytics';
import type { Draft, DraftStore } from '../services/drafts';
import { defaultRetry, submitUrl, type RetryPolicy, type SubmitResult } from '../services/submit';
import { systemTimers, type Timers } from '../services/timers';
import { initialValues } from '../../shared/form-values';
import { PLATFORM_FILLED_PATH } from '../../shared/blocks/platforms';
import { getPath } from '../../shared/paths';
import { EMAIL_PATH } from '../../shared/blocks/personal-info';
import type { Messages } from '../../shared/messages';
import type { ApplicationPayload, FieldError } from '../../shared/payload';
import type { BlockRegistry } from './block-registry';
import { createResolver, withDraft } from './form-values';
import type { NavigationAction, NavigationState, Task } from './navigation';
import { WizardContext, isRequiredTarget, type WizardContextValue } from './wizard-context';
import { revealFocusedQuestion } from './focus-heading';
import { RequiredNote } from '../controls/required-mark';
import type { ResumeLaterProps } from './resume-later';

/**
 * The answer at a form path as text, to tell whether it changed since the server judged it; for the
 * platform-filled rule, every platform's answers.
 */
function answerAt(values: unknown, path: string): string {
  return JSON.stringify(path === PLATFORM_FILLED_PATH ? [getPath(values, 'platforms'), getPath(values, 'fields.single')] : (getPath(values, path) ?? null));
}

/**
 * How the engine sends an application, given with the engine by where it runs (`LoadedEngine`):
 * the public page's (`services/submission.ts`, in the engine's chunk: not in the first load) or the
 * preview's, which sends nothing.
 */
export interface Submission {
  /**
   * Sends page `pageId`'s application (requirements §8, §13) to `url` under the page's
   * Idempotency-Key ({@link idempotencyKeys}), retrying by `policy` (`services/submit.ts`,
   * `submitApplication`). Never rejects.
   */
  submit(url: string, payload: ApplicationPayload, pageId: string, policy?: RetryPolicy): Promise<SubmitResult>;
  /**
   * Starts, in the background, what the send of the page's application will need (the public
   * page's proof of work for its Idempotency-Key, docs/decisions/032); the preview needs nothing.
   */
  prepare?(pageId: string): void;
  /** The page's Idempotency-Key (requirements §13): the same one until the application is stored (`services/idempotency.ts`). */
  idempotencyKeys: { get(pageId: string): string; clear(pageId: string): void };
  /**
   * Loads the form that asks for a link to continue on another device (requirements §22: `engine/resume-later.tsx`, a chunk
   * of its own, fetched when asked for); absent where nothing is kept on a server (the preview).
   */
  resumeLater?(): Promise<ComponentType<ResumeLaterProps>>;
}

/** What the engine receives from where the page runs: its {@link Submission}, and focus from the page's services. */
export interface EngineServices extends Submission {
  /**
   * Moves focus to the step's heading in `content` (requirements §2; `engine/focus-heading.ts`).
   * @returns whether focus moved.
   */
  focusHeading(content: ParentNode, orStep: boolean): boolean;
}

/** Props of {@link WizardEngine}: the page's navigation state and services, owned by the page's `Wizard`. */
export interface WizardEngineProps {
  config: WizardConfig;
  /** The block components, passed in by the page: the engine imports none. */
  blocks: BlockRegistry;
  navigation: NavigationState;
  dispatch: Dispatch<NavigationAction>;
  /** The submit, its Idempotency-Key and focus, from where the page runs. */
  services: EngineServices;
  /** The page's analytics and draft store, made from `services` once per configuration. */
  analytics: Analytics;
  drafts: DraftStore;
  /** The draft restored on load, if any. */
  restored: Draft | undefined;
  /** The age screen's answers (requirements §20), sent with the application and kept in the draft. */
  screen?: AgeScreenAnswers | undefined;
  /** The screen's answers changed on the step that sends the application (a minor's guardian's details: {@link GuardianReview}). */
  onScreenChange?: ((screen: AgeScreenAnswers) => void) | undefined;
  redirect: (url: string) => void;
  /** What the draft's debounce and the submit's retries wait on (default: the browser's timers; tests: a clock moved by hand). */
  timers?: Timers;
}

/**
 * The wizard's engine (requirements §4, §5), loaded after the first paint: the form
 * (react-hook-form over the shared validation targets), the blocks of the
 * current step, drafts, and the tasks of each Continue press the navigation
 * reducer (`navigation.ts`) asks for: the step's check, the submit, the
 * redirect to `signUpUrl`.
 */
export function WizardEngine(props: WizardEngineProps) {
  const { config, blocks, navigation, dispatch, services, analytics, drafts, restored, redirect, screen, onScreenChange, timers = systemTimers } = props;
  const { idempotencyKeys, focusHeading } = services;
  // Told before each retry of a submit: the applicant reads "Still sending…" until the send ends.
  const [retrying, setRetrying] = useState(false);
  // A minor's application sent for a parent's or guardian's consent (requirements §20): the last
  // step says so; on a page that skips it, before its sign-up page (a first press stays, a second leaves).
  const [guardianAsked, setGuardianAsked] = useState<'asked' | 'not-asked'>();
  // The guardian's details as a send judged them (shown at their fields on the sending step).
  const [guardianErrors, setGuardianErrors] = useState<{ name?: string; emailAddress?: string }>({});
  const retry = useMemo(() => ({ ...defaultRetry(timers), onRetry: () => setRetrying(true) }), [timers]);
  const { messages } = config;
  const stepIndex = navigation.step;
  const allTargets = useMemo(() => validationTargets(config), [config]);
  // The step that asks each validated path (the server's errors and a failed final check go there).
  const stepOf = useMemo(
    () => new Map(config.steps.flatMap((_, index) => validationTargets(config, index).map((target) => [target.path, index] as const))),
    [config],
  );
  const screenCountry = screen?.age?.countryCode;
  const context = useMemo<WizardContextValue>(
    () => ({ config, messages, targets: new Map(allTargets.map((target) => [target.path, target])), screenCountry }),
    [config, messages, allTargets, screenCountry],
  );
  // The server's field errors (a page changed since the wizard loaded), each kept while the answer
  // it judged is unchanged: a re-check by the wizard's own rules must not wipe it (outside review).
  const [serverErrors] = useState(() => new Map<string, { message: string; answer: string }>());
  const form = useForm({
    defaultValues: withDraft(initialValues(config), restored?.values),
    resolver: createResolver(allTargets, messages, (values) => {
      const kept: Record<string, string> = {};
      for (const [path, { message, answer }] of serverErrors) {
        if (answerAt(values, path) === answer) kept[path] = message;
        else serverErrors.delete(path);
      }
      return kept;
    }),
    mode: 'onBlur',
    reValidateMode: 'onBlur',
  });
  // Build the later steps' lists (countries, calling codes) while the applicant reads, one task
  // per idle period, so Continue renders them without building them.
  // …and what the send will need (the proof of work), after them.
  useEffect(() => runWhenIdle([...blocks.warmUpTasks(config), () => services.prepare?.(config.pageId)]), [blocks, config, services]);
  const submitted = useRef(false);
  const honeypot = useRef<HTMLInputElement>(null);
  // Save the draft while the applicant types (debounced) and on every step change: after the new
  // step has painted, since this effect runs inside the Continue event, or at pagehide
  // if the page goes first.
  useEffect(() => {
    if (submitted.current) return;
    let timer: unknown;
    const save = () => {
      cancelAnimationFrame(frame);
      timers.clear(timer);
      if (!submitted.current) drafts.save({ step: stepIndex, values: form.getValues(), screen });
    };
    const saveIn = (ms: number) => {
      timers.clear(timer);
      timer = timers.set(save, ms);
    };
    const frame = requestAnimationFrame(() => saveIn(0));
    const unsubscribe = form.subscribe({ formState: { values: true }, callback: () => saveIn(300) });
    window.addEventListener('pagehide', save);
    return () => {
      cancelAnimationFrame(frame);
      timers.clear(timer);
      unsubscribe();
      window.removeEventListener('pagehide', save);
    };
  }, [drafts, form, stepIndex, timers, screen]);

  const steps = config.steps;
  const current = steps[stepIndex] ? stepIndex : 0;
  const lastIndex = steps.length - 1;

  /**
   * Marks the step's controls touched and validates them (requirements §4), once the rules have what they
   * need to judge as the server does (the phone's numbering plans: fetched as the phone shows, so
   * a moment at most; offline, the rules' fallback judges).
   */
  const validateStep = async (index: number) => {
    const targets = validationTargets(config, index);
    await loadRulesFor(targets, form.getValues()).catch(() => undefined);
    const valid = await form.trigger(
      targets.map((t) => t.path),
      { shouldFocus: true },
    );
    if (!valid) revealFocusedQuestion();
    return valid;
  };

  /**
   * Shows the server's field errors (payload paths; `platforms` is the platform-filled rule) at the
   * fields the page asks for.
   * @returns the messages of errors no field of the page shows, one line, or undefined; and the
   * first step that shows one.
   */
  const showServerErrors = (errors: readonly FieldError[]): { unshown: string | undefined; first: number | undefined } => {
    const unshown: string[] = [];
    let first: number | undefined;
    for (const { path, message } of errors) {
      const formPath = path === 'platforms' ? PLATFORM_FILLED_PATH : path;
      const step = stepOf.get(formPath);
      if (step === undefined) {
        if (!unshown.includes(message)) unshown.push(message);
        continue;
      }
      serverErrors.set(formPath, { message, answer: answerAt(form.getValues(), formPath) });
      form.setError(formPath, { type: 'server', message });
      first = Math.min(first ?? step, step);
    }
    // The guardian's answers (the age screen's, passed) are refused only beside a field of the
    // applicant's own that the server names too (their own e-mail address): that field says it.
    const said =
      first === undefined ? unshown : unshown.filter((message) => !errors.some((error) => error.path.startsWith('guardian') && error.message === message));
    return { unshown: said.length > 0 ? said.join(' · ') : undefined, first };
  };

  /**
   * requirements §4 submit, pressed on step `at`: everything validated; nothing sent when invalid; a
   * failed send keeps the step. @returns the outcome for the navigation reducer.
   */
  const submit = async (at: number): Promise<NavigationAction> => {
    const values = form.getValues();
    if (!navigator.onLine) return { type: 'failed', error: messages.offline };
    // The phone rule judges by the phone-number library and the numbering plans of the codes the
    // answers name (loaded with the phone's step; a moment at most).
    await loadRulesFor(allTargets, values).catch(() => undefined);
    const invalid = Object.keys(validateTargets(allTargets, values, messages));
    if (invalid.length > 0) {
      // A step left earlier can hold the error (a draft restored on a changed page): go back to it.
      const first = Math.min(...invalid.map((path) => stepOf.get(path) ?? at));
      await form.trigger(undefined, { shouldFocus: true });
      revealFocusedQuestion();
      return { type: 'invalid', step: first };
    }
    // Sent already: a press that lands between the answer and the next step's render (or after
    // Back) must not send the application again under a new Idempotency-Key.
    if (submitted.current) return { type: 'ok' };
    if (screen?.guardian) {
      // Changed on this step (GuardianReview): judged as the age screen judged them.
      const problems = (await guardianChunk()).guardianProblems(screen.guardian, messages);
      setGuardianErrors(problems);
      if (problems.name || problems.emailAddress) return { type: 'failed', error: undefined };
    }
    const url = submitUrl(config.requestUrl, config.pageId);
    const trap = honeypot.current?.value;
    const payload = trap ? { ...buildPayload(config, values, screen), honeypot: trap } : buildPayload(config, values, screen);
    let result = await services.submit(url, payload, config.pageId, retry);
    if (!result.ok && result.status === 422) {
      // The key went with other answers (an earlier send arrived though its answer was lost, then
      // the applicant changed something): these answers are sent as an application of their own.
      idempotencyKeys.clear(config.pageId);
      result = await services.submit(url, payload, config.pageId, retry);
    }
    if (!result.ok) {
      // The server's rules refused answers the wizard let through (a page changed since it loaded):
      // each shown at its field, on the first step that has one; the rest in the error line.
      // A page that closed while the applicant typed (its dates or its cap; 410) says so in its own words.
      if (result.status === 410) return { type: 'failed', error: messages.closed };
      if (!result.errors) return { type: 'failed', error: config.submitErrorText ?? messages.submitError };
      const { unshown, first } = showServerErrors(result.errors);
      return { type: 'failed', error: unshown, step: first };
    }
    idempotencyKeys.clear(config.pageId);
    submitted.current = true;
    if (screen?.guardian) setGuardianAsked(result.guardianAsked === false ? 'not-asked' : 'asked');
    drafts.clear();
    return { type: 'ok' };
  };

  const guardianNoteRead = useRef(false);
  // "Finish on another device" (requirements §22): its form, once asked for.
  const [ResumeLater, setResumeLater] = useState<ComponentType<ResumeLaterProps>>();

  // The engine has arrived: a press made before it is carried out now (below).
  useEffect(() => dispatch({ type: 'ready' }), [dispatch]);
  // The engine replaces the step the page showed while it loaded: a heading the page focused there
  // lost focus with it, and the engine's own heading takes it, unless the applicant has moved focus
  // since (requirements §2).
  useEffect(() => {
    if (navigation.focus !== 'engine-heading') return;
    if (!document.activeElement || document.activeElement === document.body) focusHeading(document, true);
    dispatch({ type: 'focused' });
  }, [navigation.focus, dispatch, focusHeading]);

  /** Carries out a press's task (requirements §4) and reports its outcome to the navigation reducer. */
  const carryOut = useEffectEvent(async (task: Task) => {
    const sync = { sync: config.title };
    try {
      if (task.run === 'validate') return dispatch({ type: (await validateStep(task.step)) ? 'ok' : 'invalid' });
      if (task.run === 'submit') {
        const outcome = await submit(task.step).finally(() => setRetrying(false));
        dispatch(outcome);
        // The second-to-last step's submit is tracked as the next step shows; the last step's before its redirect.
        if (outcome.type === 'ok' && task.step < lastIndex) void analytics.track('Form Submitted', sync);
        return;
      }
      if (config.skipFinalStep && guardianAsked && !guardianNoteRead.current) {
        // The note first: the applicant reads it, then Continue leaves.
        guardianNoteRead.current = true;
        return dispatch({ type: 'failed', error: undefined });
      }
      await analytics.track(config.skipFinalStep ? 'Form Submitted' : 'Sign In Clicked', sync);
      redirect(config.signUpUrl);
      dispatch({ type: 'ok' });
    } catch (error) {
      // The press ends; the error line stays as it was.
      dispatch({ type: 'failed', error: navigation.error });
      throw error;
    }
  });
  // Each task once, when the reducer asks for it: a press made before the engine arrived (pending)
  // is carried out as it arrives. The ref keeps StrictMode's second run of the effect from doing it again.
  const taken = useRef<Task>(undefined);
  useEffect(() => {
    const task = navigation.busy;
    if (!task || taken.current === task) return;
    taken.current = task;
    void carryOut(task);
  }, [navigation.busy]);

  return (
    <WizardContext.Provider value={context}>
      <FormProvider {...form}>
        {/* A step whose blocks all render without the form is the page's (wizard.tsx): its elements stay. */}
        {(steps[current]!.blocks.every(blocks.rendersWithoutForm) ? [current + 1] : [current, current + 1])
          .filter((index) => index < steps.length)
          .map((index) => (
            <StepBlocks key={index} config={config} registry={blocks} index={index} ahead={index !== current} />
          ))}
        {screen?.guardian && onScreenChange && !guardianAsked && current === sendingStepIndex(config) ? (
          <Suspense>
            <GuardianReview
              guardian={screen.guardian}
              onChange={(guardian) => {
                setGuardianErrors({});
                onScreenChange({ ...screen, guardian });
              }}
              errors={guardianErrors}
              messages={messages}
            />
          </Suspense>
        ) : null}
        {guardianAsked && current === lastIndex ? (
          <p className="guardian-asked" role="status">
            {guardianAsked === 'asked' ? messages.guardianAsked : messages.guardianNotAsked}
          </p>
        ) : null}
        {/* The honeypot (docs/decisions/032), on the step that sends (the first step stays the server's markup): unseen, unread
            and out of the tab order; what fills it is no person. */}
        {current === sendingStepIndex(config) && (
          <div className="honeypot" aria-hidden="true">
            <input ref={honeypot} name="website" type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
          </div>
        )}
        <SubmitProgress busy={!!navigation.busy} retrying={retrying} messages={messages} />
        {/* Between the welcome and the send, on a page that offers the link: offersResumeLink (src/shared/resume.ts) written
            out, as importing it costs the whole flow 46 bytes its budget does not have. */}
        {services.resumeLater && config.resumeLink && config.drafts !== 'off' && current > 0 && current <= sendingStepIndex(config) ? (
          ResumeLater ? (
            // A link keeps the answers as they were when asked for: on another step the form starts afresh (a new link, the new answers).
            <ResumeLater
              key={current}
              config={config}
              draft={() => ({ step: current, values: form.getValues(), screen })}
              email={form.getValues(EMAIL_PATH) ?? ''}
            />
          ) : (
            <button type="button" className="resume-later-button" onClick={() => void services.resumeLater!().then((form) => setResumeLater(() => form))}>
              {messages.resumeLater}
            </button>
          )
        ) : null}
      </FormProvider>
    </WizardContext.Provider>
  );
}

/**
 * The one status region of a submit, after the step's blocks: "Sending…" for screen
 * readers while a step is sent, then, once a send waits to retry, "Still sending…" for everyone.
 * One region, so a retry is one announcement rather than two regions speaking at once. Before the
 * engine has loaded, `wizard.tsx` renders the same region (empty on the server).
 */
export function SubmitProgress({ busy, retrying, messages }: { busy: boolean; retrying: boolean; messages: Pick<Messages, 'sending' | 'stillSending'> }) {
  return (
    <p className="submit-progress" role="status">
      {retrying ? (
        <span className="submit-progress-note">{messages.stillSending}</span>
      ) : busy ? (
        <span className="visually-hidden">{messages.sending}</span>
      ) : null}
    </p>
  );
}

/**
 * The blocks of step `index`. The step after the current one is rendered ahead (`ahead`), hidden
 * (React's <Activity>): React renders it at its lowest priority while the applicant is on the
 * current step, and Continue then only reveals it instead of rendering a dozen controls while
 * the applicant waits. Hidden, it runs no effects, so nothing in it follows the form:
 * it is rendered again, still hidden, whenever a value it reads changes (its fields, the paths
 * of its conditions, what its blocks show of other steps). Shown, it is the step: class `step`.
 */
function StepBlocks({ config, registry, index, ahead }: { config: WizardConfig; registry: BlockRegistry; index: number; ahead: boolean }) {
  const reads = useMemo(() => {
    const targets = validationTargets(config, index);
    const paths = [
      ...targets.map((target) => target.path),
      ...targets.flatMap((target) => (target.condition ? [target.condition.path] : [])),
      ...registry.extraReads(config, index),
    ];
    return [...new Set(paths)];
  }, [registry, config, index]);
  // Followed only while hidden: once shown, the step's own controls follow the form.
  const read = useWatch({ name: reads, disabled: !ahead }) as unknown[];
  const version = JSON.stringify(read);
  // The same elements on every render of the step: revealing it (Continue) changes only the
  // Activity's mode and the class, so React reconnects the blocks' effects without rendering a
  // dozen controls again (each react-hook-form controller registers its field on every render).
  // The blocks follow the form and the wizard's context themselves.
  // A step that asks a required question says once what its mark means (WCAG 3.3.2), after its
  // heading and text, before its first question.
  const blocks = useMemo(() => {
    const step = config.steps[index]!;
    const rendered = step.blocks.map((block, blockIndex) => registry.renderBlock(block, blockIndex));
    if (validationTargets(config, index).some(isRequiredTarget)) {
      const first = step.blocks.findIndex((block) => block.component !== 'html');
      rendered.splice(first < 0 ? 0 : first, 0, <RequiredNote key="required-note" text={config.messages.requiredNote} />);
    }
    return rendered;
  }, [registry, config, index]);
  return (
    <Activity mode={ahead ? 'hidden' : 'visible'}>
      <div key={version} className={ahead ? 'step-ahead' : 'step'}>
        {blocks}
      </div>
    </Activity>
  );
}

/**
 * Runs `tasks` one per idle period (`requestIdleCallback`, or a 50 ms timer where the browser has
 * none), so no task delays an input by more than its own length.
 * @returns a function that cancels the tasks not yet run.
 */
function runWhenIdle(tasks: (() => unknown)[]): () => void {
  const queue = [...tasks];
  let handle: number | undefined;
  const schedule = () => {
    if (queue.length === 0) return;
    handle = typeof window.requestIdleCallback === 'function' ? window.requestIdleCallback(run, { timeout: 2000 }) : window.setTimeout(run, 50);
  };
  const run = () => {
    queue.shift()?.();
    schedule();
  };
  schedule();
  return () => {
    if (handle === undefined) return;
    if (typeof window.cancelIdleCallback === 'function') window.cancelIdleCallback(handle);
    else window.clearTimeout(handle);
  };
}
