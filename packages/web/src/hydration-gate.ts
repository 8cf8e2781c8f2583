// While React hydrates a prerendered page, the visitor's taps and keys stay the browser's (issue 36).
//
// React hydrates as a transition, in slices that yield to the browser. But a discrete event (a tap, a key,
// an input) that reaches React's root listener while the root is still dehydrated makes React hydrate the
// whole root at once, synchronously, inside that event so it can dispatch it: one task of 300–450 ms on a
// phone with a 4× slower CPU, during which the tapped field shows nothing typed (measured, ADR 068). Until
// the hydration has committed these events are kept from React: a capture listener on the root element,
// registered before React's own, stops them there. The browser still does what the event does by default
// (the character appears, the box ticks, the link is followed, the form submits to the entry script's hold),
// and the app adopts what the fields hold when its form takes over (form-takeover.ts, ADR 057).
//
// React's list of the events it replays after hydrating synchronously (`discreteReplayableEvents` in
// react-dom): the ones that force a synchronous hydration.
const DISCRETE_EVENTS = [
  'mousedown',
  'mouseup',
  'touchcancel',
  'touchend',
  'touchstart',
  'auxclick',
  'dblclick',
  'pointercancel',
  'pointerdown',
  'pointerup',
  'dragend',
  'dragstart',
  'drop',
  'compositionend',
  'compositionstart',
  'keydown',
  'keypress',
  'keyup',
  'input',
  'textInput',
  'copy',
  'cut',
  'paste',
  'click',
  'change',
  'contextmenu',
  'reset',
] as const;

// Passive: a touch listener that may cancel would make the compositor wait for the main thread to scroll.
const OPTIONS = { capture: true, passive: true } as const;

/**
 * Keeps the discrete events inside `root` from React until the page marks itself ready
 * (`<html data-app-ready>`, app-ready.ts). Not until the root's commit: that can come while a Suspense
 * boundary around the page is still dehydrated, and an event inside it would make React hydrate that at
 * once. By the ready mark the page's forms have taken over what their fields hold (their effects run
 * before their page's). `held` sees each event kept back (what the entry script would otherwise have seen
 * on the document: they no longer bubble there). Call before `hydrateRoot`, so this listener runs before
 * React's on the same element.
 */
export function closeReactEvents(root: HTMLElement, held: (event: Event) => void): void {
  const stop = (event: Event) => {
    event.stopImmediatePropagation();
    held(event);
  };
  for (const type of DISCRETE_EVENTS) root.addEventListener(type, stop, OPTIONS);
  const html = document.documentElement;
  // Called back in a microtask of the task that set the mark: no event can come in between.
  const ready = new MutationObserver(() => {
    if (html.dataset.appReady !== 'true') return;
    ready.disconnect();
    for (const type of DISCRETE_EVENTS) root.removeEventListener(type, stop, OPTIONS);
  });
  ready.observe(html, { attributes: true, attributeFilter: ['data-app-ready'] });
}
