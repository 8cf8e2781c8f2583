// A visitor on a throttled phone who taps into the landing form at once and types it key by key, then taps
// "Search Now", picks a beneficiary and reaches Congratulations (issue 36). Measured in the page with the
// browser's own APIs, as a real user monitoring script would:
//   - Event Timing (`event` entries, the data behind Core Web Vitals' INP): every interaction's duration,
//     from the input's hardware timestamp to the next frame painted after its handlers ran;
//   - Long Tasks (`longtask`): every main-thread task over 50 ms from the document's start (the observer is
//     installed before any of the page's own scripts, by an init script);
//   - Long Animation Frames (`long-animation-frame`): which scripts made a long frame (where time went).

/** Runs in the page before its own scripts: collects the entries into `window.__perf`. */
export function instrument() {
  // The observers only keep the entries: reading them (and their scripts) waits for the end of the visit,
  // so the measuring adds no task of its own to what it measures.
  const raw = { events: [], longTasks: [], frames: [], keys: [], taps: [], busyAt: undefined };
  Object.defineProperty(window, '__perf', { value: raw });
  const observe = (type, into, extra = {}) => {
    try {
      new PerformanceObserver((list) => into.push(...list.getEntries())).observe({
        type,
        buffered: true,
        ...extra,
      });
    } catch {
      /* not supported: that figure stays empty */
    }
  };
  observe('event', raw.events, { durationThreshold: 16 });
  observe('longtask', raw.longTasks);
  observe('long-animation-frame', raw.frames);
  // The visitor's own inputs, by their events' timestamps (the same clock as Event Timing's startTime):
  // an interaction under 16 ms has no entry, and is then at most that.
  addEventListener(
    'keydown',
    (e) => raw.keys.push({ at: e.timeStamp, field: e.target?.name ?? '', key: e.key }),
    true,
  );
  addEventListener('pointerdown', (e) => raw.taps.push({ at: e.timeStamp, target: e.target }), true);
  // "Search Now" busy: the entry script's mark before the app runs, Mantine's loading state with it.
  new MutationObserver((records) => {
    for (const r of records) {
      const el = r.target;
      if (
        raw.busyAt === undefined &&
        el instanceof HTMLButtonElement &&
        el.type === 'submit' &&
        (el.getAttribute('aria-busy') === 'true' || el.hasAttribute('data-loading'))
      )
        raw.busyAt = performance.now();
    }
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ['aria-busy', 'data-loading'] });
}

/** What `instrument` collected, as plain data (run in the page at the end of a visit). */
export function collected() {
  const raw = /** @type {any} */ (window).__perf;
  return {
    events: raw.events
      .filter((e) => e.interactionId)
      .map((e) => ({ id: e.interactionId, name: e.name, start: e.startTime, duration: e.duration })),
    longTasks: raw.longTasks.map((e) => ({ start: e.startTime, duration: e.duration })),
    frames: raw.frames.map((e) => ({
      start: e.startTime,
      duration: e.duration,
      scripts: e.scripts.map((s) => ({
        duration: s.duration,
        invoker: s.invoker,
        invokerType: s.invokerType,
        source: `${s.sourceURL.replace(/^.*\//, '')}${s.sourceFunctionName ? ` ${s.sourceFunctionName}` : ''}`,
      })),
    })),
    keys: raw.keys,
    taps: raw.taps.map((t) => ({ at: t.at, target: t.target?.textContent?.trim().slice(0, 40) ?? '' })),
    // What each tap landed on, in words (a radio or a box has no text of its own).
    tapTargets: raw.taps.map((t) => {
      const el = t.target;
      const text = el?.textContent?.trim().slice(0, 40);
      const label = el?.labels?.[0]?.textContent?.trim().slice(0, 40);
      return text || label || el?.getAttribute?.('name') || el?.tagName?.toLowerCase() || '?';
    }),
    busyAt: raw.busyAt,
  };
}

/** Event Timing's INP: the worst interaction, skipping one per 50 interactions (web-vitals' approximation). */
export function inpOf(durations) {
  if (durations.length === 0) return 0;
  const sorted = [...durations].sort((a, b) => b - a);
  return sorted[Math.min(sorted.length - 1, Math.floor(durations.length / 50))];
}

/** What the visitor types, field by field (by the fields' names). */
export const TYPED_FIELDS = (run) => [
  ['firstName', 'Bench'],
  ['lastName', 'Typist'],
  ['streetAddress', '1 Main St'],
  ['zipCode', '10001'],
  ['email', `bench.type.${Date.now() % 1e8}.${run}@example.com`],
  ['phone', '5551234567'],
];

/** Delay between two keys: a quick typist on a phone (≈ 6 keys a second). */
const KEY_DELAY_MS = 150;

/**
 * One visit. `submit`: tap "Search Now", choose a beneficiary and wait for Congratulations (the app); without
 * it the visit ends after the consent box (the static baseline, which has no app to answer). Returns every
 * interaction, every keystroke and the tap with their durations, and the long tasks.
 */
export async function typedVisit(newPhonePage, url, run, { submit }) {
  const { context, page } = await newPhonePage();
  try {
    await page.addInitScript(instrument);
    await page.goto(url, { waitUntil: 'commit' });
    // CSS selectors, not Playwright's label or role queries: those run in the page, on its main thread, and
    // on a 4× slower CPU a role query over the whole page is itself a task of 50–100 ms the visitor would
    // not cause.
    const field = (name) => page.locator(`form[method="post"] [name="${name}"]`);
    // At once: as soon as the first field can be tapped (the page has painted it).
    await field('firstName').waitFor({ state: 'visible' });
    for (const [name, text] of TYPED_FIELDS(run)) {
      await field(name).tap();
      await page.keyboard.type(text, { delay: KEY_DELAY_MS });
    }
    await field('birthMonth').selectOption('5');
    await field('birthDay').selectOption('17');
    await field('birthYear').selectOption('1970');
    await field('consentGiven').tap();
    let appReadyBeforeTap = false;
    if (submit) {
      appReadyBeforeTap = await page.evaluate(() => document.documentElement.dataset.appReady === 'true');
      await page.locator('form[method="post"] button[type="submit"]').tap();
      const dialog = page.locator('[role="dialog"]');
      await dialog.locator('input[type="radio"][value="Child"]').tap({ timeout: 60_000 });
      await dialog.locator('button').last().tap(); // Submit (after Skip)
      await page.waitForFunction(
        () => [...document.querySelectorAll('h2')].some((h) => h.textContent === 'Congratulations!'),
        null,
        { timeout: 60_000, polling: 200 },
      );
    }
    // The last frames' entries are delivered after they are presented.
    await page.waitForTimeout(1000);
    const perf = await page.evaluate(collected);
    return { ...summarise(perf), appReadyBeforeTap };
  } finally {
    await context.close();
  }
}

/** An interaction's duration is its longest entry's; one under Event Timing's 16 ms threshold counts 16. */
export function summarise(perf) {
  const byId = new Map();
  for (const e of perf.events) {
    const seen = byId.get(e.id);
    if (!seen || e.duration > seen.duration) byId.set(e.id, e);
  }
  const interactions = [...byId.values()];
  /** The interaction whose entries include an event that started at `at` (±1 ms: timestamps are rounded). */
  const durationAt = (at) => {
    const hit = perf.events
      .filter((e) => Math.abs(e.start - at) <= 1)
      .map((e) => byId.get(e.id)?.duration ?? 0);
    return hit.length ? Math.max(16, ...hit) : 16;
  };
  const keystrokes = perf.keys.map((k) => ({ field: k.field, key: k.key, ms: durationAt(k.at) }));
  const searchTap = perf.taps.find((t) => t.target === 'Search Now');
  const tap = searchTap
    ? {
        ms: durationAt(searchTap.at),
        busyMarkMs: perf.busyAt === undefined ? undefined : perf.busyAt - searchTap.at,
      }
    : undefined;
  const worst = interactions.reduce((a, b) => (b.duration > (a?.duration ?? -1) ? b : a), undefined);
  /** What the worst interaction was: the tap's target or the key's field. */
  const worstOn = () => {
    const starts = perf.events.filter((e) => e.id === worst.id).map((e) => e.start);
    const near = (at) => starts.some((s) => Math.abs(s - at) <= 1);
    const tapIndex = perf.taps.findIndex((t) => near(t.at));
    if (tapIndex >= 0) return `tap on "${perf.tapTargets?.[tapIndex] ?? perf.taps[tapIndex].target}"`;
    const key = perf.keys.find((k) => near(k.at));
    return key ? `key in ${key.field}` : '';
  };
  const longest = perf.longTasks.reduce((a, b) => Math.max(a, b.duration), 0);
  return {
    inp: inpOf(interactions.map((i) => i.duration)),
    worst: worst
      ? { ms: worst.duration, name: worst.name, at: worst.start, on: worstOn() }
      : { ms: 0, name: '-', at: 0, on: '' },
    interactions: interactions.length,
    keystrokes,
    tap,
    longestTask: longest,
    longTasks: perf.longTasks,
    frames: perf.frames.filter((f) => f.duration > 50),
  };
}
