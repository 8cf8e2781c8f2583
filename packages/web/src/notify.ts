import { notifications } from '@mantine/notifications';
import { TOAST } from '@uf/shared/constants';

// Toasts (spec §8): one visible at a time (<Notifications limit>), 5 s, errors in the destructive style.

export function notifyError(title: string, message: string) {
  notifications.show({ title, message, color: 'red', autoClose: TOAST.durationMs, withBorder: true });
}

export function notifySuccess(title: string, message?: string) {
  notifications.show({ title, message: message ?? '', color: 'green', autoClose: TOAST.durationMs });
}
