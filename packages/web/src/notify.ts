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

export function notifyError(title: string, message: string) {
  void loadToasts().then(({ notifications }) =>
    notifications.show({ title, message, color: 'red', autoClose: TOAST.durationMs, withBorder: true }),
  );
}

export function notifySuccess(title: string, message?: string) {
  void loadToasts().then(({ notifications }) =>
    notifications.show({ title, message: message ?? '', color: 'green', autoClose: TOAST.durationMs }),
  );
}

/**
 * Removes every toast on screen and queued (sign-in and sign-out start a clean slate, issue 16), then
 * shows the given one. One step: as two (clean, then show, each after its own import of the toasts
 * module) the clean sometimes ran after the show and the spec's 'Login successful' never appeared.
 */
export function notifySuccessOnCleanSlate(title: string, message?: string) {
  void loadToasts().then(({ notifications }) => {
    notifications.clean();
    notifications.show({ title, message: message ?? '', color: 'green', autoClose: TOAST.durationMs });
  });
}
