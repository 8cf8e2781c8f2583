import { TOAST } from '@uf/shared/constants';
import { loadToasts, showToast } from './notify';

// Admin-only (kept out of notify.ts so it stays out of the landing bundle, ADR 005).

/**
 * A toast that stays while long work runs and then turns into its outcome. With one toast visible at a
 * time (spec §8), a second toast would wait behind the first; updating it in place shows the result now.
 * When the progress toast is no longer there (the admin closed it, or another toast replaced it), the
 * outcome is shown as a toast of its own: the admin always learns how the work ended.
 */
export function notifyProgress(title: string, message?: string) {
  const id = `progress-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  showToast({ id, title, message: message ?? '', loading: true, autoClose: false });
  const settle = (color: 'green' | 'red') => (doneTitle: string, doneMessage?: string) =>
    void loadToasts().then(({ notifications, notificationsStore }) => {
      const outcome = {
        title: doneTitle,
        message: doneMessage ?? '',
        color,
        loading: false,
        autoClose: TOAST.durationMs,
        withBorder: color === 'red',
      };
      const { notifications: shown, queue } = notificationsStore.getState();
      if ([...shown, ...queue].some((n) => n.id === id)) notifications.update({ id, ...outcome });
      else showToast(outcome);
    });
  return { success: settle('green'), error: settle('red') };
}
