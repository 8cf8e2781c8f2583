import { type CSSVariablesResolver, createTheme, type MantineColorsTuple } from '@mantine/core';

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
});

/**
 * Text colours Mantine derives for every component, set once here (issue 16): error messages in red.9
 * (#c92a2a, 5.6:1 on white; the stock red.6 #fa5252 is 3.3:1) and secondary ("dimmed") text in gray.7
 * (#495057, 8.6:1; the stock gray.6 #868e96 is 3.3:1). WCAG AA asks 4.5:1 for text.
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: { '--mantine-color-error': t.colors.red[9], '--mantine-color-dimmed': t.colors.gray[7] },
  dark: {},
});
