import { TOAST } from '@uf/shared/constants';

// Toasts (spec §8): one visible at a time (<Notifications limit>), 5 s, errors in the destructive style.
// The notifications package loads on first use or when the browser is idle (see ToastRegion), so it
// stays out of the landing page's first load.
const loadNotifications = () => import('@mantine/notifications');

export function notifyError(title: string, message: string) {
  void loadNotifications().then(({ notifications }) =>
    notifications.show({ title, message, color: 'red', autoClose: TOAST.durationMs, withBorder: true }),
  );
}

export function notifySuccess(title: string, message?: string) {
  void loadNotifications().then(({ notifications }) =>
    notifications.show({ title, message: message ?? '', color: 'green', autoClose: TOAST.durationMs }),
  );
}

/** Removes every toast on screen and queued (sign-in and sign-out start a clean slate, issue 16). */
export function clearNotifications() {
  void loadNotifications().then(({ notifications }) => notifications.clean());
}
