import { Suspense, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import type { AgeScreenAnswers } from '../../shared/build-payload';
import type { WizardConfig } from '../../shared/config';
import { fillEmail } from '../../shared/html';
import { SafeHtml } from '../controls/safe-html';
import { WizardFrame } from './frame';
import { navigate, restoredStep, type NavigationState } from './navigation';
import type { LoadedEngine, WizardServices } from './services';

/** Props of {@link Wizard}. */
export interface WizardProps {
  config: WizardConfig;
  /** Drafts, analytics and the engine's chunk, from where the page runs (`WizardServices`). */
  services: WizardServices;
  /** Where the last step sends the applicant; `location.assign` by default. */
  redirect?: (url: string) => void;
  /** The engine, when already loaded (tests). */
  engine?: LoadedEngine | undefined;
}

/**
 * The configuration-driven wizard (requirements §2, §4). It owns the navigation state (`navigation.ts`:
 * the step, the press under way, the error line, focus), what the layout shows of it, and paints
 * the welcome step at once; the engine (forms, selects, data lists, validation, submit) arrives
 * after the load event and takes over the step's content and the tasks of each press. Step 0
 * advances without validation (requirements §4), so Continue works before the engine is there; a press
 * the engine must carry out is pending until it arrives.
 */
export function Wizard({ config, services, redirect = (url) => window.location.assign(url), engine }: WizardProps) {
  const { loadEngine } = services;
  const drafts = useMemo(() => services.drafts(config), [services, config]);
  // Restore the answers and the step of a reload or a crashed tab.
  const [restored] = useState(() => drafts.load());
  // requirements §4: the current step starts at 0, or at the restored draft's.
  const [navigation, dispatch] = useReducer(navigate, undefined, (): NavigationState => ({
    step: restoredStep(restored, config.steps.length),
    steps: config.steps.length,
    skipFinalStep: config.skipFinalStep,
    error: services.notice,
  }));
  const { step: stepIndex, focus } = navigation;
  const [loaded, setLoaded] = useState(engine);
  const analytics = useMemo(() => services.analytics(config), [services, config]);
  // The engine sends as its chunk says, and moves focus as the page does.
  const engineServices = useMemo(() => loaded && { ...loaded.submission, focusHeading: services.focusHeading }, [loaded, services]);
  const contentRef = useRef<HTMLDivElement>(null);
  const firstRender = useRef(true);
  // The age screen (requirements §20, the engine's AgeScreen): shown on the first step after the
  // welcome until its answer took (kept in the draft); it ends the wizard for an age it refuses.
  const [screen, setScreen] = useState<AgeScreenAnswers | undefined>(() => (config.ageScreen ? restored?.screen : undefined));
  const [screenEnded, setScreenEnded] = useState(false);
  const screenShown = !!config.ageScreen && !screen?.age && stepIndex > 0;
  const screenContinue = useRef<(() => void) | null>(null);
  const reachedSteps = useRef(new Set<number>());

  useEffect(() => {
    if (loaded || !loadEngine) return;
    // After the load event, so the engine never competes with the first paint's bytes.
    const load = () =>
      void loadEngine().then((engine) => {
        if (config.ageScreen) engine.preloadAgeScreen?.();
        setLoaded(engine);
      });
    if (document.readyState === 'complete') load();
    else window.addEventListener('load', load, { once: true });
    return () => window.removeEventListener('load', load);
  }, [loaded, loadEngine, config.ageScreen]);

  useEffect(() => {
    // 'Step Reached' once per step per visit (requirements §4, §7); step numbers start at 1. A step
    // the age screen stands in front of is reached once the screen has passed (one it ends is not).
    if (screenShown || reachedSteps.current.has(stepIndex)) return;
    reachedSteps.current.add(stepIndex);
    void analytics.track('Step Reached', { step: stepIndex + 1, sync: config.title, allStepsCount: config.steps.length });
  }, [analytics, config, stepIndex, screenShown]);

  // On a step change: scroll past the cover image (requirements §2).
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    // Read the step's position after the new step has painted, not here: this effect runs inside
    // the Continue event, and reading a position right after React's commit forces the browser to
    // lay out the whole new step before it can paint (~40 % of Welcome → step 1 on a
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
  // Focus to the step's heading (requirements §2) after a step change, once the heading is there (it
  // waits for it while the engine is loading; the engine then gives focus to its own, see
  // engine.tsx). The engine's arrival alone never moves focus (the applicant may be on Continue).
  useEffect(() => {
    const content = contentRef.current;
    if (content && focus === 'heading' && services.focusHeading(content, !!loaded)) dispatch({ type: 'focused' });
  }, [focus, stepIndex, loaded, services]);

  // Until the engine arrives, the step shows its HTML blocks (the welcome step has nothing else). A
  // step whose blocks the page renders as the engine would (HTML, the welcome step the server
  // rendered) stays the page's after it has arrived: rendered again, its elements would be new ones
  // where the server's were painted, and text painted after the first paint is a later
  // largest-contentful-paint candidate (decision 009).
  const step = config.steps[stepIndex]!;
  const pageShows = !screenShown && (!loaded || step.blocks.every(loaded.blocks.rendersWithoutForm));

  return (
    <WizardFrame
      config={config}
      navigation={navigation}
      // While the age screen shows, Continue is its own.
      dispatch={screenShown ? (action) => (action.type === 'continue' ? screenContinue.current?.() : dispatch(action)) : dispatch}
      contentRef={contentRef}
      ended={screenEnded}
      screen={screenShown}
    >
      {/* The same element in the same place before and after the engine arrives: React keeps it. */}
      {pageShows ? (
        <div className="step" aria-busy={step.blocks.some((block) => block.component !== 'html') || undefined}>
          {step.blocks.map((block, index) =>
            block.component === 'html' ? <SafeHtml key={index} className="block-html" html={fillEmail(block.data.html, undefined)} /> : null,
          )}
        </div>
      ) : null}
      {screenShown ? (
        loaded ? (
          <Suspense fallback={<div className="step" aria-busy="true" />}>
            <loaded.AgeScreen
              config={config as WizardConfig & { ageScreen: NonNullable<WizardConfig['ageScreen']> }}
              continueRef={screenContinue}
              step={stepIndex}
              drafts={drafts}
              analytics={analytics}
              focusHeading={services.focusHeading}
              onPassed={setScreen}
              onEnded={() => setScreenEnded(true)}
            />
          </Suspense>
        ) : (
          <div className="step" aria-busy="true" />
        )
      ) : loaded ? (
        <loaded.Engine
          config={config}
          blocks={loaded.blocks}
          navigation={navigation}
          dispatch={dispatch}
          services={engineServices!}
          analytics={analytics}
          drafts={drafts}
          restored={restored}
          screen={screen}
          onScreenChange={setScreen}
          redirect={redirect}
        />
      ) : (
        // The engine's status line (SubmitProgress): a Continue pressed before the engine arrives is "Sending…" too.
        <p className="submit-progress" role="status">
          {navigation.busy && <span className="visually-hidden">{config.messages.sending}</span>}
        </p>
      )}
    </WizardFrame>
  );
}
