import { useEffect, useMemo, useRef, useState, type ComponentType } from 'react';
import type { WizardConfig } from '../../shared/config';
import { fillEmail } from '../../shared/html';
import { SafeHtml } from '../controls/safe-html';
import { createAnalytics } from '../services/analytics';
import { withFunnel } from '../services/funnel';
import { createDraftStore, restoredStep } from '../services/drafts';
import { WizardFrame } from './frame';
import type { EngineControls, WizardEngineProps } from './wizard-engine';

/** Props of {@link Wizard}. */
export interface WizardProps {
  config: WizardConfig;
  /** Where the last step sends the applicant; `location.assign` by default. */
  redirect?: (url: string) => void;
  /**
   * The engine, when already loaded (tests). By default it is imported in its
   * own chunk after the page's load event, so the welcome step paints with
   * React, the layout and the sanitiser only (issue 6, "fast on a phone").
   */
  engine?: ComponentType<WizardEngineProps>;
}

/**
 * The configuration-driven wizard (SPEC §2, §4). It owns what the layout
 * shows — the step, progress, the error line — and paints the welcome step at
 * once; the engine (forms, selects, data lists, validation, submit) arrives
 * after the load event and takes over the step's content. Step 0 advances
 * without validation (SPEC §4), so Continue works before the engine is there.
 */
export function Wizard({ config, redirect = (url) => window.location.assign(url), engine }: WizardProps) {
  const { messages } = config;
  const drafts = useMemo(() => createDraftStore(config.drafts, config.pageId), [config]);
  // Restore the answers and the step of a reload or a crashed tab (issue 6).
  const [restored] = useState(() => drafts.load());
  const [stepIndex, setStepIndex] = useState(() => restoredStep(restored, config.steps.length));
  const [submitError, setSubmitError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [Engine, setEngine] = useState<ComponentType<WizardEngineProps> | undefined>(() => engine);
  const analytics = useMemo(() => withFunnel(createAnalytics(config.analytics), config), [config]);
  const controls = useRef<EngineControls | undefined>(undefined);
  const contentRef = useRef<HTMLDivElement>(null);
  const firstRender = useRef(true);
  const reachedSteps = useRef(new Set<number>());

  useEffect(() => {
    if (Engine) return;
    // After the load event, so the engine never competes with the first paint's bytes.
    const load = () => void import('./wizard-engine').then((module) => setEngine(() => module.WizardEngine));
    if (document.readyState === 'complete') load();
    else window.addEventListener('load', load, { once: true });
    return () => window.removeEventListener('load', load);
  }, [Engine]);

  useEffect(() => {
    // 'Step Reached' once per step per visit (SPEC §4, §7); step numbers start at 1.
    if (reachedSteps.current.has(stepIndex)) return;
    reachedSteps.current.add(stepIndex);
    void analytics.track('Step Reached', { step: stepIndex + 1, sync: config.title, allStepsCount: config.steps.length });
  }, [analytics, config, stepIndex]);

  // On a step change: scroll past the cover image and move focus to the step's heading (SPEC §2).
  // Focus waits for the heading when the engine is still loading; the engine's arrival alone
  // never moves focus (the applicant may be on the Continue button).
  const focusPending = useRef(false);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    focusPending.current = true;
    // Read the step's position after the new step has painted, not here: this effect runs inside
    // the Continue event, and reading a position right after React's commit forces the browser to
    // lay out the whole new step before it can paint (issue 12: ~40 % of Welcome → step 1 on a
    // phone). After the paint the layout is already done and the read costs nothing.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        const content = contentRef.current;
        if (!content) return;
        const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
        window.scrollTo({ top: content.getBoundingClientRect().top + window.scrollY, behavior: reduce ? 'auto' : 'smooth' });
      }, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [stepIndex]);
  // A heading focused before the engine arrived is replaced by the engine's: focus the new one,
  // unless the applicant has moved on.
  const refocusAfterEngine = useRef(false);
  useEffect(() => {
    const content = contentRef.current;
    if (!content) return;
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (!focusPending.current && !(Engine && refocusAfterEngine.current && lost)) return;
    const heading = content.querySelector<HTMLElement>('.step h1, .step h2, .step h3');
    const target = heading ?? (Engine ? content.querySelector<HTMLElement>('.step') : null);
    if (!target) return;
    focusPending.current = false;
    refocusAfterEngine.current = !Engine;
    target.tabIndex = -1;
    target.focus({ preventScroll: true });
  }, [stepIndex, Engine]);

  const goTo = (index: number) => {
    setSubmitError(undefined);
    setStepIndex(index);
  };
  // Continue pressed on a step the engine must handle, before it arrived: carried out on arrival.
  const continuePending = useRef(false);
  const onContinue = () => {
    // Step 0 advances with no validation (SPEC §4), engine or not; with two steps it is the submit step.
    if (stepIndex === 0 && config.steps.length > 2) return goTo(1);
    if (controls.current) return void controls.current.next();
    continuePending.current = true;
    setBusy(true);
  };
  useEffect(() => {
    // Child effects run first: the engine has registered its controls by now.
    if (!Engine || !continuePending.current || !controls.current) return;
    continuePending.current = false;
    setBusy(false);
    void controls.current.next();
  }, [Engine]);
  // Until the engine arrives, the step shows its HTML blocks (the welcome step has nothing else).
  const step = config.steps[stepIndex]!;

  return (
    <WizardFrame
      config={config}
      messages={messages}
      stepIndex={stepIndex}
      busy={busy}
      submitError={submitError}
      contentRef={contentRef}
      onBack={() => goTo(stepIndex - 1)}
      onContinue={onContinue}
    >
      {Engine ? (
        <Engine
          config={config}
          messages={messages}
          stepIndex={stepIndex}
          goTo={goTo}
          setBusy={setBusy}
          setSubmitError={setSubmitError}
          analytics={analytics}
          drafts={drafts}
          restored={restored}
          redirect={redirect}
          controlsRef={controls}
        />
      ) : (
        <div className="step" aria-busy={step.blocks.some((block) => block.component !== 'html') || undefined}>
          {step.blocks.map((block, index) =>
            block.component === 'html' ? <SafeHtml key={index} className="block-html" html={fillEmail(block.data.html, undefined)} /> : null,
          )}
        </div>
      )}
    </WizardFrame>
  );
}
