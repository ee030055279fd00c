import { useEffect, useMemo, useRef, useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { buildPayload } from '../../shared/build-payload';
import type { WizardConfig } from '../../shared/config';
import { resolveMessages } from '../../shared/messages';
import { validateTargets, validationTargets } from '../../shared/validation';
import { renderBlock } from '../blocks/registry';
import { createAnalytics } from '../services/analytics';
import { createDraftStore } from '../services/drafts';
import { clearIdempotencyKey, getIdempotencyKey } from '../services/idempotency';
import { submitApplication, submitUrl } from '../services/submit';
import { createResolver, initialValues, withDraft } from './form-values';
import { WizardFrame } from './frame';
import { WizardContext, type WizardContextValue } from './wizard-context';

/** Props of {@link Wizard}. */
export interface WizardProps {
  config: WizardConfig;
  /** Where the last step sends the applicant; `location.assign` by default. */
  redirect?: (url: string) => void;
}

/**
 * The configuration-driven wizard (SPEC §2, §4): steps of registry blocks, the
 * step bar, Back and Continue / Sign In, the submit at the second-to-last
 * step and the redirect to `signUpUrl` at the last.
 */
export function Wizard({ config, redirect = (url) => window.location.assign(url) }: WizardProps) {
  const messages = useMemo(() => resolveMessages(config.messages), [config]);
  const allTargets = useMemo(() => validationTargets(config), [config]);
  const context = useMemo<WizardContextValue>(
    () => ({ config, messages, targets: new Map(allTargets.map((target) => [target.path, target])) }),
    [config, messages, allTargets],
  );
  const drafts = useMemo(() => createDraftStore(config.drafts, config.pageId), [config]);
  // Restore the answers and the step of a reload or a crashed tab (issue 6).
  const [restored] = useState(() => drafts.load());
  const form = useForm({
    defaultValues: withDraft(initialValues(config), restored?.values),
    resolver: createResolver(allTargets, messages),
    mode: 'onBlur',
    reValidateMode: 'onBlur',
  });
  const [stepIndex, setStepIndex] = useState(() => Math.min(Math.max(restored?.step ?? 0, 0), config.steps.length - 1));
  const submitted = useRef(false);

  // Save the draft while the applicant types (debounced) and on every step change.
  useEffect(() => {
    if (submitted.current) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const save = () => {
      clearTimeout(timer);
      if (!submitted.current) drafts.save({ step: stepIndex, values: form.getValues() });
    };
    save();
    const unsubscribe = form.subscribe({
      formState: { values: true },
      callback: () => {
        clearTimeout(timer);
        timer = setTimeout(save, 300);
      },
    });
    window.addEventListener('pagehide', save);
    return () => {
      clearTimeout(timer);
      unsubscribe();
      window.removeEventListener('pagehide', save);
    };
  }, [drafts, form, stepIndex]);
  const [submitError, setSubmitError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const contentRef = useRef<HTMLDivElement>(null);
  const firstRender = useRef(true);
  const analytics = useMemo(() => createAnalytics(config.analytics), [config]);
  const reachedSteps = useRef(new Set<number>());

  const steps = config.steps;
  const step = steps[stepIndex] ?? steps[0]!;
  const lastIndex = steps.length - 1;

  useEffect(() => {
    // 'Step Reached' once per step per visit (SPEC §4, §7); step numbers start at 1.
    if (reachedSteps.current.has(stepIndex)) return;
    reachedSteps.current.add(stepIndex);
    void analytics.track('Step Reached', { step: stepIndex + 1, sync: config.title, allStepsCount: config.steps.length });
  }, [analytics, config, stepIndex]);

  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    // Scroll past the cover image to the new step, and move focus to its heading (SPEC §2).
    const content = contentRef.current;
    if (!content) return;
    const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    window.scrollTo({ top: content.getBoundingClientRect().top + window.scrollY, behavior: reduce ? 'auto' : 'smooth' });
    const heading = content.querySelector<HTMLElement>('.step h1, .step h2, .step h3');
    const target = heading ?? content.querySelector<HTMLElement>('.step');
    if (target) {
      target.tabIndex = -1;
      target.focus({ preventScroll: true });
    }
  }, [stepIndex]);

  const goTo = (index: number) => {
    setSubmitError(undefined);
    setStepIndex(index);
  };

  /** Marks the step's controls touched and validates them (SPEC §4). */
  const validateStep = (index: number) => form.trigger(validationTargets(config, index).map((t) => t.path), { shouldFocus: true });

  /** SPEC §4 submit: everything validated; nothing sent when invalid; false on a failed send. */
  const submit = async (): Promise<boolean> => {
    const values = form.getValues();
    if (!navigator.onLine) {
      setSubmitError(messages.offline);
      return false;
    }
    if (Object.keys(validateTargets(allTargets, values, messages)).length > 0) {
      await form.trigger(undefined, { shouldFocus: true });
      return false;
    }
    const result = await submitApplication(
      submitUrl(config.requestUrl, config.pageId),
      buildPayload(config, values),
      getIdempotencyKey(config.pageId),
    );
    if (!result.ok) {
      setSubmitError(config.submitErrorText ?? messages.submitError);
      return false;
    }
    clearIdempotencyKey(config.pageId);
    submitted.current = true;
    drafts.clear();
    return true;
  };

  // A ref, not state: a double click lands before React re-renders with busy = true.
  const inFlight = useRef(false);
  const next = async () => {
    if (inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    try {
      if (stepIndex === 0 && lastIndex > 1) return goTo(1);
      if (stepIndex < lastIndex - 1) {
        if (await validateStep(stepIndex)) goTo(stepIndex + 1);
        return;
      }
      const sync = { sync: config.title };
      if (stepIndex === lastIndex - 1) {
        if (config.skipFinalStep) {
          if (await validateStep(stepIndex)) goTo(stepIndex + 1);
        } else if ((await validateStep(stepIndex)) && (await submit())) {
          goTo(stepIndex + 1);
          void analytics.track('Form Submitted', sync);
        }
        return;
      }
      if (config.skipFinalStep) {
        if ((await validateStep(stepIndex)) && (await submit())) {
          await analytics.track('Form Submitted', sync);
          redirect(config.signUpUrl);
        }
        return;
      }
      await analytics.track('Sign In Clicked', sync);
      redirect(config.signUpUrl);
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  return (
    <WizardContext.Provider value={context}>
      <FormProvider {...form}>
        <WizardFrame
          config={config}
          messages={messages}
          stepIndex={stepIndex}
          busy={busy}
          submitError={submitError}
          contentRef={contentRef}
          onBack={() => goTo(stepIndex - 1)}
          onContinue={() => void next()}
        >
          <div className="step" key={stepIndex}>
            {step.blocks.map((block, index) => renderBlock(block, index))}
          </div>
        </WizardFrame>
      </FormProvider>
    </WizardContext.Provider>
  );
}
