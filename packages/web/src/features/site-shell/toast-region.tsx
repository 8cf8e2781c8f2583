import { useHotkeys } from '@mantine/hooks';
import { TOAST } from '@uf/shared/constants';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';

// The notification component (with its transitions) loads when the browser is idle, not with the
// page: `notifications.show()` only needs the small store, and queued toasts appear once it mounts.
const Notifications = lazy(() =>
  import('@mantine/notifications').then((m) => ({ default: m.Notifications })),
);

/** The notification region; F8 moves keyboard focus to it (spec §8). */
export function ToastRegion() {
  const ref = useRef<HTMLElement>(null);
  const [ready, setReady] = useState(false);
  useHotkeys([[TOAST.hotkey, () => ref.current?.focus()]], []);
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((cb: () => void) => window.setTimeout(cb, 200));
    idle(() => setReady(true));
  }, []);
  return (
    <section ref={ref} aria-label={`Notifications (${TOAST.hotkey})`} tabIndex={-1}>
      {ready && (
        <Suspense fallback={null}>
          <Notifications limit={TOAST.limit} autoClose={TOAST.durationMs} position="top-right" />
        </Suspense>
      )}
    </section>
  );
}
