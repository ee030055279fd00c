import { Component, StrictMode, lazy, useEffect, type ErrorInfo, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import type { WizardConfig } from '../../shared/config';
import { CONFIG_ELEMENT_ID } from '../../shared/html';
import { PREVIEW_ELEMENT_ID, type PreviewMarker } from '../../shared/preview';
import { THEME_PROPERTIES, themeProperties } from '../../shared/theme';
import type { WizardEngineProps } from '../engine/engine';
import type { LoadedEngine } from '../engine/services';
import { Wizard } from '../engine/wizard';
import { Engine, blocks } from '../wizard-engine';
import type { PageAgeScreenProps } from '../engine/age-screen';
import { postToBuilder } from './channel';
import { createPreviewController, type PreviewView } from './controller';
import { previewAnswers, setPreviewDraft } from './services/drafts';
import { previewServices, previewAgeScreenLock, previewSubmission } from './preview-services';

/** The age screen, in a chunk as on the public page (the guardian's fields a chunk both it and the engine load). */
const Screen = lazy(async () => ({ default: (await import('../engine/age-screen')).AgeScreen }));

/**
 * The preview's page (docs/decisions/021 "Preview"): the entry of the preview build
 * (vite.preview.config.ts), loaded by `GET /preview/{id}` in place of the public page's first
 * script. It renders the real wizard (its engine, blocks and styles) with the preview's services
 * (`previewServices`: no request on submit, drafts in memory, no analytics, funnel or error
 * reporting) and takes the builder's commands (controller.ts).
 */

/** The JSON of a `<script type="application/json">` element of the page, or undefined when it has none. */
function inlined<T>(id: string): T | undefined {
  const text = document.getElementById(id)?.textContent;
  return text ? (JSON.parse(text) as T) : undefined;
}

/** Calls `onCommit(generation)` once React has committed the render of `generation`. */
function Committed({ generation, onCommit }: { generation: number; onCommit: (generation: number) => void }) {
  useEffect(() => onCommit(generation), [generation, onCommit]);
  return null;
}

/** Catches a render error of a draft (a configuration the checks refuse can still break a block) and tells the view. */
class PreviewBoundary extends Component<{ onError: (error: Error) => void; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(error, info.componentStack);
    this.props.onError(error);
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

/**
 * The page's title, language and theme for `config`. The theme goes on the root element's style
 * through the CSSOM (the Content Security Policy allows no `<style>` but the server's, by hash).
 */
function applyDocument(config: WizardConfig) {
  document.title = config.title;
  document.documentElement.lang = config.lang;
  const { style } = document.documentElement;
  for (const property of THEME_PROPERTIES) style.removeProperty(property);
  for (const [property, value] of themeProperties(config.styleConfig.theme)) style.setProperty(property, value);
}

function start() {
  const marker = inlined<PreviewMarker>(PREVIEW_ELEMENT_ID) ?? { pageId: '', problems: [] };
  const initial = inlined<WizardConfig>(CONFIG_ELEMENT_ID);
  const container = document.getElementById('root')!;
  // The theme is the preview's to set from now on (applyDocument): the server's <style> goes.
  for (const style of document.head.querySelectorAll('style')) style.remove();
  // The engine, with the step it shows told to the controller on every step change.
  function TrackedEngine(props: WizardEngineProps) {
    const { step, steps } = props.navigation;
    useEffect(() => controller.stepShown(step, steps), [step, steps]);
    return <Engine {...props} />;
  }
  // The screen keeps the first lock it is given: one in memory per screen shown.
  const AgeScreen = (props: PageAgeScreenProps) => <Screen {...props} lock={previewAgeScreenLock()} />;
  const engine: LoadedEngine = { Engine: TrackedEngine, AgeScreen, blocks, submission: previewSubmission };

  // The server's markup goes: the wizard is mounted afresh (it starts on the draft's step).
  container.textContent = '';
  const root = createRoot(container);
  let generation = 0;
  let failed = false;
  let lastGood: { config: WizardConfig; step: number } | undefined;
  const waiting: { generation: number; resolve: (ok: boolean) => void; config: WizardConfig; step: number }[] = [];
  const onCommit = (committed: number) => {
    for (const entry of waiting.filter((entry) => entry.generation <= committed)) {
      waiting.splice(waiting.indexOf(entry), 1);
      // A render superseded before it committed is answered as the one that replaced it.
      const ok = !failed;
      if (ok && entry.generation === committed) lastGood = { config: entry.config, step: entry.step };
      entry.resolve(ok);
    }
    if (failed && lastGood) {
      failed = false;
      const { config, step } = lastGood;
      lastGood = undefined;
      void show(config, step);
    }
  };
  const onError = () => {
    failed = true;
  };
  const show: PreviewView['show'] = (config, step) => {
    // Keep the answers typed so far; start on `step` (the wizard reads its draft as it mounts).
    setPreviewDraft({ step, values: previewAnswers() });
    applyDocument(config);
    const current = ++generation;
    failed = false;
    root.render(
      <StrictMode>
        <PreviewBoundary key={current} onError={onError}>
          {/* Leaving for the sign-up page would take the frame away from the builder: the preview stays. */}
          <Wizard config={config} services={previewServices} engine={engine} redirect={() => undefined} />
        </PreviewBoundary>
        <Committed generation={current} onCommit={onCommit} />
      </StrictMode>,
    );
    return new Promise<boolean>((resolve) => waiting.push({ generation: current, resolve, config, step }));
  };

  // Declared after the engine that tells it: the wizard first renders below, once it exists.
  const controller = createPreviewController({
    pageId: marker.pageId,
    view: { show },
    post: postToBuilder,
    origin: window.location.origin,
    parent: window.parent === window ? null : window.parent,
    initial: { config: initial, problems: marker.problems },
  });
  window.addEventListener('message', (event) => controller.receive(event));
  if (initial) void show(initial, 0);
  postToBuilder({ type: 'wizard-preview:ready' });
}

start();
