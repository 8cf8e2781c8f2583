import { TOAST } from '@uf/shared/constants';
import { loadToasts, showToast } from './notify';

// Admin-only (kept out of notify.ts so it stays out of the landing bundle, ADR 005).

/**
 * A toast that stays while long work runs and then turns into its outcome. With one toast visible at a
 * time (spec §8), a second toast would wait behind the first; updating it in place shows the result now.
 */
export function notifyProgress(title: string, message?: string) {
  const id = `progress-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  showToast({ id, title, message: message ?? '', loading: true, autoClose: false });
  const settle = (color: 'green' | 'red') => (doneTitle: string, doneMessage?: string) =>
    void loadToasts().then(({ notifications }) =>
      notifications.update({
        id,
        title: doneTitle,
        message: doneMessage ?? '',
        color,
        loading: false,
        autoClose: TOAST.durationMs,
        withBorder: color === 'red',
      }),
    );
  return { success: settle('green'), error: settle('red') };
}
