import { useEffect, useSyncExternalStore, type CSSProperties, type Dispatch, type ReactNode, type Ref } from 'react';
import type { WizardConfig } from '../../shared/config';
import { sendingStepIndex } from '../../shared/steps';
import { COVER_IMAGE_SIZES, coverImageSources } from '../../shared/cover-image';
import { formatMessage } from '../../shared/messages';
import { SafeHtml } from '../controls/safe-html';
import type { NavigationAction, NavigationState } from './navigation';
import { StepBar } from './step-bar';

/** Props of {@link WizardFrame}. */
export interface WizardFrameProps {
  config: WizardConfig;
  /** The step, the press under way (Continue shows progress and is aria-disabled) and the error line (requirements §2, §8). */
  navigation: NavigationState;
  /** Receives Back and Continue. */
  dispatch: Dispatch<NavigationAction>;
  contentRef?: Ref<HTMLDivElement>;
  /** The step's content. */
  children: ReactNode;
  /** The age screen ended the wizard (requirements §20): neither Back nor Continue. */
  ended?: boolean;
  /**
   * The age screen stands in front of the step (requirements §20): its Continue only answers the
   * screen, so it says Continue, not the step's own words (Submit application on a sending step),
   * and shows on a step that hides its own.
   */
  screen?: boolean;
}

/**
 * The wizard's layout (requirements §2): cover panel, logo bar with the mobile back
 * arrow, step bar, the step, Back and Continue / Sign In, the error line,
 * footer and footer links. No form logic, so the first paint can use it
 * before the engine has loaded.
 */
export function WizardFrame(props: WizardFrameProps) {
  const { config, navigation, dispatch, contentRef, children, ended = false, screen = false } = props;
  const { step: stepIndex, error: submitError } = navigation;
  const busy = !!navigation.busy;
  const onBack = () => dispatch({ type: 'back' });
  const { messages } = config;
  const online = useOnline();
  const steps = config.steps;
  const step = steps[stepIndex] ?? steps[0]!;
  const isLast = stepIndex === steps.length - 1;
  // No way back from the thank-you step (its application is sent); with `skipFinalStep` the last
  // step is a question step like the others, and keeps its Back.
  const showBack = stepIndex > 0 && (!isLast || config.skipFinalStep) && !ended;
  const backText = config.buttonText.back ?? messages.back;
  // The button says what it does (requirements §2): the step that sends the application says so.
  const continueText = screen
    ? (config.buttonText.continue ?? messages.continue)
    : (step.continueButtonText ??
      (stepIndex === sendingStepIndex(config)
        ? (config.buttonText.submit ?? messages.submit)
        : isLast
          ? (config.buttonText.signIn ?? messages.signIn)
          : (config.buttonText.continue ?? messages.continue)));
  const coverImage = config.singleCoverImg ?? config.coverImages[stepIndex] ?? config.coverImages[0];
  const cover = coverImage === undefined ? undefined : coverImageSources(coverImage);
  const nextImage = config.singleCoverImg ? undefined : config.coverImages[stepIndex + 1];
  const next: { src?: string; srcset?: string | undefined } = nextImage === undefined ? {} : coverImageSources(nextImage);
  const { src: nextSrc, srcset: nextSrcset } = next;
  useEffect(() => {
    // Load the next step's cover ahead of need, at the size it will be shown.
    if (!nextSrc) return;
    const timer = setTimeout(() => {
      const image = new Image();
      image.sizes = COVER_IMAGE_SIZES;
      if (nextSrcset) image.srcset = nextSrcset;
      image.src = nextSrc;
    }, 300);
    return () => clearTimeout(timer);
  }, [nextSrc, nextSrcset]);

  return (
    <div className={`wizard${step.styles?.grayBg ? ' gray-bg' : ''}`}>
      {cover ? (
        <div className="cover" aria-hidden="true">
          <img
            src={cover.src}
            srcSet={cover.srcset}
            sizes={cover.srcset ? COVER_IMAGE_SIZES : undefined}
            alt=""
            fetchPriority={stepIndex === 0 ? 'high' : 'auto'}
            decoding="async"
          />
        </div>
      ) : null}
      <div className="content" ref={contentRef}>
        <div className="content-inner">
          <header className={`logo-bar${config.centerLogo ? ' centered' : ''}`}>
            {showBack ? (
              <button type="button" className="back-arrow" onClick={onBack} aria-label={backText} style={config.styleConfig.backArrowStyle as CSSProperties}>
                <span aria-hidden="true">←</span>
              </button>
            ) : null}
            {config.showLogo && config.logo ? <img className="logo" src={config.logo} alt={config.title} /> : null}
            {/* Where the step bar hides (576 px and narrower, styles.css), the step's position in words. */}
            <p className="step-position">{formatMessage(messages.stepPosition, { current: stepIndex + 1, total: steps.length })}</p>
          </header>
          <StepBar steps={steps} current={stepIndex} label={messages.stepsLabel} />
          <main>
            <form
              noValidate
              onSubmit={(event) => {
                event.preventDefault();
                dispatch({ type: 'continue' });
              }}
            >
              {children}
              <div className="actions">
                {showBack ? (
                  <button
                    type="button"
                    className="button button-secondary back-button"
                    onClick={onBack}
                    style={config.styleConfig.backButtonStyle as CSSProperties}
                  >
                    {backText}
                  </button>
                ) : null}
                {(step.hideConfirmButton && !screen) || ended ? null : (
                  <button type="submit" className="button button-primary" aria-disabled={busy || undefined} aria-busy={busy || undefined}>
                    {busy ? <span className="spinner" aria-hidden="true" /> : null}
                    {continueText}
                  </button>
                )}
              </div>
              <p className="form-error" role="alert">
                {submitError}
              </p>
              {online ? null : (
                <p className="offline-notice" role="status">
                  {messages.offline}
                </p>
              )}
            </form>
          </main>
          <footer className={`wizard-footer${config.centerFooterText ? ' centered' : ''}`}>
            {step.footer ? <SafeHtml className="step-footer" html={step.footer} /> : null}
            {config.footerLinks.length > 0 ? (
              <ul className="footer-links">
                {config.footerLinks.map((link) => (
                  <li key={link.url}>
                    <a href={link.url} target="_blank" rel="noopener noreferrer">
                      {link.text}
                    </a>
                  </li>
                ))}
              </ul>
            ) : null}
          </footer>
        </div>
      </div>
    </div>
  );
}

/** Follows the browser's online and offline events. */
function subscribeOnline(update: () => void): () => void {
  window.addEventListener('online', update);
  window.addEventListener('offline', update);
  return () => {
    window.removeEventListener('online', update);
    window.removeEventListener('offline', update);
  };
}

/**
 * Whether the browser is online. The server renders (and the browser hydrates) the online
 * layout; an offline browser shows its notice right after hydration.
 */
function useOnline(): boolean {
  return useSyncExternalStore(
    subscribeOnline,
    () => navigator.onLine,
    () => true,
  );
}
