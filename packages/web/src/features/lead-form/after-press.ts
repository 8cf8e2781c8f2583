import { useRef, useState } from 'react';

/**
 * Issue 37: on a phone, a tap on the consent box was lost whenever a field above it had an error. The tap
 * blurs that field, its message appears and pushes the box 34 px down — after the finger landed and before
 * the click, which then fell beside the box (5 of 5 tries). While a press on the form is under way, what
 * it would show waits for its click (a press without one: for the finger to lift, or the next press).
 */
export function usePressHold() {
  const held = useRef<(() => void)[] | null>(null);
  // Made once: the form's fields keep the same handlers from render to render (lead-form.tsx).
  const [hold] = useState(() => {
    const release = () => {
      const run = held.current ?? [];
      held.current = null;
      for (const fn of run) fn();
    };
    return {
      /** Runs `fn` now, or after the press under way. */
      later: (fn: () => void) => (held.current ? held.current.push(fn) : fn()),
      /** The form's handlers that follow its presses. */
      formProps: {
        onPointerDown: () => {
          release();
          held.current = [];
        },
        // After the click's own handlers: the box is ticked first.
        onClick: () => setTimeout(release),
        // On a phone the click comes a moment after the finger lifts.
        onPointerUp: () => setTimeout(release, 600),
        onPointerCancel: release,
      },
    };
  });
  return hold;
}
