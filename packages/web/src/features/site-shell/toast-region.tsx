import { useHotkeys } from '@mantine/hooks';
import { Notifications } from '@mantine/notifications';
import { TOAST } from '@uf/shared/constants';
import { useRef } from 'react';

/** The notification region; F8 moves keyboard focus to it (spec §8). */
export function ToastRegion() {
  const ref = useRef<HTMLElement>(null);
  useHotkeys([[TOAST.hotkey, () => ref.current?.focus()]], []);
  return (
    <section ref={ref} aria-label={`Notifications (${TOAST.hotkey})`} tabIndex={-1}>
      <Notifications limit={TOAST.limit} autoClose={TOAST.durationMs} position="top-right" />
    </section>
  );
}
