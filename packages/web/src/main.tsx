import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { AppRoot } from './app-root';
import { router } from './router';

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('#root is missing from index.html');
if (rootElement.hasChildNodes()) {
  // A prerendered page (ADR 053): load the route's code first, then take over the markup as it is.
  void router.load().then(() => hydrateRoot(rootElement, <AppRoot router={router} hydrating />));
} else {
  createRoot(rootElement).render(<AppRoot router={router} />);
}
