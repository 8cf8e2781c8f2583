import { type CSSVariablesResolver, createTheme, darken, type MantineColorsTuple } from '@mantine/core';

// A green whose shade 8 reads at 6.7:1 on white (WCAG AA needs 4.5:1 for text and links):
// Mantine's stock green.8/9 fall short as link and button colours (axe: color-contrast).
const brand: MantineColorsTuple = [
  '#ebfbee',
  '#d3f9d8',
  '#b2f2bb',
  '#8ce99a',
  '#69db7c',
  '#40c057',
  '#2f9e44',
  '#1e7b34',
  '#186a2c',
  '#0f5323',
];

const fontFamily = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

export const theme = createTheme({
  colors: { brand },
  primaryColor: 'brand',
  primaryShade: { light: 8, dark: 8 },
  fontFamily,
  headings: { fontFamily },
  defaultRadius: 'md',
  // A dialog's title bar is a plain block, not a <header>: outside any landmark a <header> is the
  // page's banner, and a second banner while a dialog is open is an axe violation (issue 16).
  components: {
    ModalHeader: { defaultProps: { component: 'div' } },
    // Every dialog's ✕ has a name (issue 37: five had none, axe's critical button-name).
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    DrawerHeader: { defaultProps: { component: 'div' } },
    // Toasts: a named close button, and the message under a title in gray.7 (stock gray.6 is 3.3:1).
    Notification: {
      defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } },
      styles: { description: { color: 'var(--mantine-color-gray-7)' } },
    },
  },
});

/**
 * Text colours Mantine derives for every component, set once here (issue 16): error messages in red.9
 * (#c92a2a, 5.6:1 on white; the stock red.6 #fa5252 is 3.3:1) and secondary ("dimmed") text in gray.7
 * (#495057, 8.6:1; the stock gray.6 #868e96 is 3.3:1). WCAG AA asks 4.5:1 for text. The text of
 * "light" badges, buttons and alerts (e.g. the TCPA badge) is each colour's shade 9 darkened by 30 %:
 * the stock shade 6 on its tint is about 2:1, and even green.9 is only 4.4:1 on white.
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    '--mantine-color-error': t.colors.red[9],
    '--mantine-color-dimmed': t.colors.gray[7],
    ...Object.fromEntries(
      Object.entries(t.colors).map(([name, shades]) => [
        `--mantine-color-${name}-light-color`,
        darken(shades[9], 0.3),
      ]),
    ),
  },
  dark: {},
});
