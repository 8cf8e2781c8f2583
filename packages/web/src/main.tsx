import './public-styles';

// The page's entry script: its stylesheet, and the app started after the first paint (ADR 053). A
// prerendered page is readable without any script, so React, the router and the page's code load only
// once the document has loaded: they do not compete with the HTML and CSS for a phone's bandwidth while
// the page paints. A client-rendered page (the admin area) has nothing to show before they run.
const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('#root is missing from index.html');
const root = rootElement;
const start = () => void import('./app-start').then((m) => m.startApp(root));

if (!root.hasChildNodes()) start();
else if (document.readyState === 'complete') start();
else window.addEventListener('load', start, { once: true });
