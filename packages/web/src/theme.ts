import { createTheme } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'green',
  // Shade 8 keeps links and filled buttons at ≥ 4.5:1 contrast on white (axe: color-contrast).
  primaryShade: { light: 8, dark: 8 },
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: {
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  },
  defaultRadius: 'md',
});
