// Mantine's notifications with the styles they need: only ever imported dynamically (notify.ts,
// notify-progress.ts, ToastRegion), so neither the code nor its CSS is on a page's first load (ADR 053).
import '@mantine/core/styles/CloseButton.layer.css';
import '@mantine/core/styles/Notification.layer.css';
import '@mantine/notifications/styles.layer.css';

export { Notifications, notifications, notificationsStore } from '@mantine/notifications';
