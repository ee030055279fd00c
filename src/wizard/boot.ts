import './styles.css';

/**
 * The page's first script: a few hundred bytes, inlined into the page by the build
 * (`inlineBoot` in vite.config.ts), that let the browser paint the server's first step — cover
 * image included — before React and the wizard are downloaded, evaluated and hydrate it.
 *
 * On a phone the wizard takes tens of milliseconds to evaluate and hydrate, and its 70 KB share a
 * slow network with the cover image. Loaded with the page, as a module script in the page would
 * be, both come before the largest paint. Here they come after: once the page has loaded (the
 * cover is in), the cover is decoded and two frames have gone by, this script preloads the
 * wizard's module and the modules it imports (in parallel, not one after the other) and imports
 * it. Inlined, it is no request of its own that the paint would wait for. A hidden tab paints
 * nothing, so it does not wait for frames.
 *
 * Until the wizard has taken over the server's markup, Continue is a plain submit button; a press
 * then is held (the page is not reloaded) and carried out once the wizard has hydrated.
 */

/**
 * The built wizard's module (`main.tsx`) first, then the modules it imports: written in by the
 * build; `npm run dev` defines it as the source module.
 */
declare const __WIZARD_MODULES__: readonly string[];

/** What a Continue pressed before the wizard took over left behind. */
export interface HeldSubmit {
  /** Stops holding submits; returns whether one was held since the page started. */
  release(): boolean;
}

/** Holds the server markup's form submits (a reload that would lose nothing but time) until released. */
function holdSubmits(): HeldSubmit {
  let held = false;
  const hold = (event: Event) => {
    // React's own handler, once hydrated, has already taken the submit.
    if (event.defaultPrevented) return;
    event.preventDefault();
    held = true;
  };
  document.addEventListener('submit', hold);
  return {
    release() {
      document.removeEventListener('submit', hold);
      return held;
    },
  };
}

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

/** Resolves once the page has loaded and its first step, cover image included, has been painted. */
async function painted(): Promise<void> {
  if (document.readyState !== 'complete') await new Promise((resolve) => window.addEventListener('load', resolve, { once: true }));
  if (document.visibilityState === 'hidden') return;
  await document
    .querySelector<HTMLImageElement>('#root .cover img')
    ?.decode()
    .catch(() => undefined);
  // The frame that paints the decoded cover, then the next one: by then it is on the screen.
  await nextFrame();
  await nextFrame();
  await nextTask();
}

const held = holdSubmits();
void painted().then(async () => {
  const [wizard, ...imports] = __WIZARD_MODULES__;
  for (const href of imports) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    document.head.append(link);
  }
  const { startWizard } = (await import(/* @vite-ignore */ wizard!)) as { startWizard(held: HeldSubmit): void };
  startWizard(held);
});
