/**
 * Resolves after the browser has painted its next frame, so what an event handler just showed (a busy
 * button) is on screen before the work that follows runs (issue 36). A timer set from a frame callback
 * runs after that frame's paint. A hidden page paints nothing: it goes on after a short wait instead.
 */
export function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    const fallback = setTimeout(resolve, 500);
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(fallback);
        resolve();
      }, 0),
    );
  });
}
