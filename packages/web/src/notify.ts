import type { NotificationData } from '@mantine/notifications';
import { TOAST } from '@uf/shared/constants';
import { useSyncExternalStore } from 'react';

// Toasts (spec §8): one visible at a time (<Notifications limit>), 5 s, errors in the destructive style.
// The notifications code and styles (toasts.ts) load with the first toast, not with the page (ADR 053);
// ToastRegion mounts <Notifications> then, and it shows what was queued meanwhile.

let wanted = false;
const listeners = new Set<() => void>();

/** Loads the notifications module and has ToastRegion mount its component (first toast of the page). */
export function loadToasts() {
  if (!wanted) {
    wanted = true;
    for (const listener of listeners) listener();
  }
  return import('./toasts');
}

/** Whether a toast has been asked for yet on this page: until then nothing of the toasts is loaded. */
export function useToastsWanted(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => wanted,
    () => false,
  );
}

/**
 * Shows a toast in place of any other, on screen or queued: with one visible at a time (spec §8), a new
 * action's feedback used to wait up to 5 s behind the last one's (issue 37); and a "Sign in failed" must not
 * follow the admin to the dashboard (issue 16). One step: as two (clean, then show, each after its own
 * import of the toasts module) the clean sometimes ran after the show and the toast never appeared.
 */
export function showToast(options: NotificationData) {
  void loadToasts().then(({ notifications }) => {
    notifications.clean();
    notifications.show(options);
  });
}

export function notifyError(title: string, message: string) {
  showToast({ title, message, color: 'red', autoClose: TOAST.durationMs, withBorder: true });
}

export function notifySuccess(title: string, message?: string) {
  showToast({ title, message: message ?? '', color: 'green', autoClose: TOAST.durationMs });
}
