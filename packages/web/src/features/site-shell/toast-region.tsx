import { useHotkeys } from '@mantine/hooks';
import { TOAST } from '@uf/shared/constants';
import { lazy, Suspense, useRef } from 'react';
import { useToastsWanted } from '../../notify';

// The notification component (with its transitions and styles) loads with the page's first toast, not
// with the page (ADR 053); toasts shown while it loads appear once it mounts.
const Notifications = lazy(() => import('../../toasts').then((m) => ({ default: m.Notifications })));

/** The notification region; F8 moves keyboard focus to it (spec §8). Toasts show at the bottom of the
 * screen: at the top they sat on the admin header's buttons, and pointing at a toast pauses it, so a
 * click there was blocked for as long as the pointer stayed (issue 27). In the middle: at the right they
 * sat on the leads tables' pinned row actions (issue 37), at the left on the rows' checkboxes. */
export function ToastRegion() {
  const ref = useRef<HTMLElement>(null);
  const wanted = useToastsWanted();
  useHotkeys([[TOAST.hotkey, () => ref.current?.focus()]], []);
  return (
    <section ref={ref} aria-label={`Notifications (${TOAST.hotkey})`} tabIndex={-1}>
      {wanted && (
        <Suspense fallback={null}>
          <Notifications limit={TOAST.limit} autoClose={TOAST.durationMs} position="bottom-center" />
        </Suspense>
      )}
    </section>
  );
}
