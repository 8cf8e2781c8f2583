import './public-styles';

// The page's entry script: its stylesheet, and the app started after the first paint (ADR 053). A
// prerendered page is readable without any script, so React, the router and the page's code load only
// once the document has loaded and a frame has been painted: they do not compete with the HTML and CSS for a phone's bandwidth while
// the page paints. A client-rendered page (the admin area) has nothing to show before they run.
const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('#root is missing from index.html');
const root = rootElement;
/** Lets the browser handle what waits (a tap, a paint) before the next stage runs. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
// The app's code is evaluated in stages, a task each: React DOM; Mantine's provider, the theme and the
// router's provider; the landing page with its Mantine components; the router and its routes; then the
// start itself. As one task, the evaluation held a phone's main thread for ~200 ms after the page had
// painted (Total Blocking Time, ADR 053).
const start = () =>
  void import('react-dom/client')
    .then(nextTask)
    .then(() => import('./app-root'))
    .then(nextTask)
    .then(() => import('./features/lead-form/landing-page'))
    .then(nextTask)
    .then(() => import('./router'))
    .then(nextTask)
    .then(() => import('./app-start'))
    .then((m) => m.startApp(root));

/** Runs `then` once the browser has painted a frame: a fast connection can fire `load` before the
 * first paint, and the app's requests must not stand in its way. */
const afterNextPaint = (then: () => void) => requestAnimationFrame(() => setTimeout(then, 0));

if (!root.hasChildNodes()) start();
else if (document.readyState === 'complete') afterNextPaint(start);
else window.addEventListener('load', () => afterNextPaint(start), { once: true });
