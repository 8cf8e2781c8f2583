import './public-styles';
import { closeReactEvents } from './hydration-gate';

// The page's entry script: its stylesheet, what every page does once its document has loaded, and the
// app (ADR 053). A prerendered page is readable without any script, and its form takes input before the
// app runs, so React, the router and the page's code (≈150 KB) load on the visitor's first interaction
// (a touch, a scroll, a key, the mouse): a visitor who reads and leaves never downloads them, and they
// never compete with the page's HTML and CSS for a phone's bandwidth. A client-rendered page (the admin
// area) has nothing to show before they run, so it starts them at once.
const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('#root is missing from index.html');
const root = rootElement;
/** Lets the browser handle what waits (a tap, a paint) before the next stage runs. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
// The app's code is evaluated in stages, a task each: React DOM; Mantine's provider, the theme and the
// router's provider; the landing page with its Mantine components; the router and its routes; then the
// start itself. As one task, the evaluation held a phone's main thread for ~200 ms (Total Blocking Time).
const start = () =>
  import('react-dom/client')
    .then(nextTask)
    .then(() => import('./app-root'))
    .then(nextTask)
    .then(() => import('./features/lead-form/landing-page'))
    .then(nextTask)
    .then(() => import('./router'))
    .then(nextTask)
    .then(() => import('./app-start'))
    .then((m) => {
      // From here until the page marks itself ready, the visitor's taps and keys inside #root stay the
      // browser's: React would hydrate the whole page at once, in the event's task, to handle one
      // (hydration-gate.ts). The fields' input still reaches this script's own listener.
      if (root.hasChildNodes())
        closeReactEvents(root, (event) => event.type === 'input' && followRequiredField(event));
      m.startApp(root);
    });

/**
 * The stages above fetch their chunks one after the other. On a prerendered page the build lists every
 * chunk of the app (`<meta name="app-modules">`, prerender.mjs), so they are all requested at once when
 * the app starts, and evaluated stage by stage as they are needed.
 */
function preloadApp(): void {
  const files = document.querySelector('meta[name="app-modules"]')?.getAttribute('content')?.split(' ') ?? [];
  // A few at a time, a task each, none in the task of the tap itself: starting twenty-odd requests at once
  // was a task of 60–100 ms on a slow phone, in the visitor's first tap (ADR 068).
  const nextBatch = () => {
    const batch = files.splice(0, 4);
    if (batch.length === 0) return;
    const links = document.createDocumentFragment();
    for (const file of batch) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.href = `/${file}`;
      links.appendChild(link);
    }
    document.head.appendChild(links);
    setTimeout(nextBatch, 0);
  };
  setTimeout(nextBatch, 0);
}

/**
 * Once the document has loaded and its first contentful paint (the hero) is on screen: nothing of the page's
 * own work may stand in the way of that paint, and a request made before it competes with the page for a
 * phone's bandwidth (Lighthouse counts every request started before the largest paint against it). A
 * painted frame's timing entry is only reported after the frame was presented, which a `requestAnimationFrame`
 * callback is not (it runs before the paint, and a timer after it could still beat the frame on a busy
 * phone). Browsers without paint timing fall back to the next frame.
 */
const loadedAndPainted = new Promise<void>((resolve) => {
  const painted = (onPainted: () => void) => {
    let done = false;
    const then = () => {
      if (done) return;
      done = true;
      onPainted();
    };
    const nextFrame = () => requestAnimationFrame(() => setTimeout(then, 0));
    const types = typeof PerformanceObserver === 'undefined' ? [] : PerformanceObserver.supportedEntryTypes;
    // A page loaded in a background tab reports no paint timing at all: it goes on with its first frame.
    if (!types.includes('paint') || document.visibilityState === 'hidden') {
      nextFrame();
      return;
    }
    // Never held for long by a paint entry that does not come (the page hidden meanwhile, a browser quirk).
    setTimeout(nextFrame, 3000);
    const lcp = types.includes('largest-contentful-paint');
    const observer = new PerformanceObserver((list) => {
      const entries = list.getEntries();
      const seen = lcp
        ? entries.some((e) => e.entryType === 'largest-contentful-paint')
        : entries.some((e) => e.name === 'first-contentful-paint');
      if (!seen) return;
      observer.disconnect();
      setTimeout(then, 0);
    });
    observer.observe({ type: lcp ? 'largest-contentful-paint' : 'paint', buffered: true });
  };
  const afterLoad = () => painted(resolve);
  if (document.readyState === 'complete') afterLoad();
  else window.addEventListener('load', afterLoad, { once: true });
});
// Whether or not the app ever starts: the session's campaign, the landing page's view, the configured tags.
const pageLoaded = loadedAndPainted
  .then(() => import('./page-load'))
  .then((m) => m.onDocumentLoad(location.pathname))
  .catch((err: unknown) => console.warn('Page load tasks failed:', err));

/** What counts as the visitor being there (not a timer: a visitor who only reads needs no app). */
const INTERACTIONS = [
  'pointerdown',
  'pointermove',
  'touchstart',
  'keydown',
  'focusin',
  'input',
  'change',
  'wheel',
  'scroll',
];

/**
 * Whether the visitor was already there before this script ran (it loads after the page paints, and on a
 * slow connection a visitor may have focused, typed into or autofilled a field by then): those events are
 * gone, so the state of the fields tells.
 */
function visitorAlreadyActed(): boolean {
  const active = document.activeElement;
  if (active && active !== document.body && root.contains(active)) return true;
  for (const field of root.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>(
    'input, select, textarea',
  )) {
    if (field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio')) {
      if (field.checked !== field.defaultChecked) return true;
    } else if (field instanceof HTMLSelectElement) {
      if ([...field.options].some((o) => o.selected !== o.defaultSelected)) return true;
    } else if (field.type !== 'hidden' && field.value !== field.defaultValue) return true;
  }
  return false;
}

/** Runs `then` once, on the first of the visitor's interactions. */
function onFirstInteraction(then: () => void): void {
  const options = { capture: true, passive: true } as const;
  const once = () => {
    for (const type of INTERACTIONS) window.removeEventListener(type, once, options);
    then();
  };
  for (const type of INTERACTIONS) window.addEventListener(type, once, options);
}

/** The app, requested once: at the first interaction, or by a submit made before it (below). */
let appRequested: Promise<void> | null = null;
const requestApp = () => {
  if (!appRequested) {
    preloadApp();
    // After the document's own load work, so the landing page's view is counted once (page-load.ts).
    appRequested = pageLoaded.then(start);
  }
  return appRequested;
};

/** How long a submit made before the app ran waits for it before the browser posts the form itself. */
const APP_WAIT_MS = 10_000;

/**
 * A public page's form is a plain `method="post"` form (ADR 057). Submitted before the app has taken it
 * over, the submit is held for the app (which sends it again when it mounts, form-takeover.ts) and the
 * button shows it is busy at once; if the app fails to load, or does not arrive in time, the browser posts
 * the form to the server, which answers with the next step. Either way the tap is never lost.
 */
function holdSubmitForApp(event: SubmitEvent): void {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || event.defaultPrevented) return;
  if (form.dataset.appForm === 'true' || form.method !== 'post') return;
  event.preventDefault();
  if (form.dataset.pendingSubmit === 'true') return;
  const submitter = event.submitter instanceof HTMLButtonElement ? event.submitter : null;
  form.dataset.pendingSubmit = 'true';
  form.dataset.pendingSubmitter = submitter?.name ?? '';
  (submitter ?? form.querySelector('button[type="submit"]'))?.setAttribute('aria-busy', 'true');
  const postItself = () => {
    if (form.dataset.pendingSubmit !== 'true') return; // the app took it
    delete form.dataset.pendingSubmit;
    if (submitter?.name) {
      const pressed = document.createElement('input');
      pressed.type = 'hidden';
      pressed.name = submitter.name;
      pressed.value = submitter.value;
      form.appendChild(pressed);
    }
    HTMLFormElement.prototype.submit.call(form);
  };
  // A form with no server answer of its own waits for the app (its button stays busy if it never comes).
  if (form.dataset.appOnly === 'true') {
    requestApp().catch((err: unknown) => console.warn('The app failed to load:', err));
    return;
  }
  const timer = setTimeout(postItself, APP_WAIT_MS);
  requestApp().catch((err: unknown) => {
    console.warn('The app failed to load; posting the form:', err);
    clearTimeout(timer);
    postItself();
  });
}

/**
 * A button the spec disables while a field is empty (`data-requires-field`, the unsubscribe form) follows
 * that field from the first keystroke, before the app has taken the form over (ADR 057).
 */
function followRequiredField(event: Pick<Event, 'target'>): void {
  const field = event.target;
  if (!(field instanceof HTMLInputElement) || !field.form || field.form.dataset.appForm === 'true') return;
  for (const button of field.form.querySelectorAll<HTMLButtonElement>(
    `button[data-requires-field="${field.name}"]`,
  ))
    button.disabled = field.value.trim() === '';
}

if (!root.hasChildNodes()) void start();
else {
  document.addEventListener('submit', holdSubmitForApp);
  document.addEventListener('input', followRequiredField);
  // Fields filled before this script ran (autofill, a quick visitor): their buttons follow them now.
  for (const field of root.querySelectorAll('input[name]')) followRequiredField({ target: field });
  // A page whose form only the app can answer (unsubscribe) starts it at once; the others when the
  // visitor is there.
  if (visitorAlreadyActed() || root.querySelector('form[data-app-only="true"]'))
    void requestApp().catch(() => undefined);
  else onFirstInteraction(() => void requestApp().catch(() => undefined));
}
