import { useEffect } from 'react';

/**
 * Marks the document once the page can be used (`<html data-app-ready="true">`), what tests and tools
 * wait for. A client-rendered page is ready when the app first renders; a prerendered one only when its
 * own part has hydrated, which React may do after the rest (ADR 053), so those pages mark it themselves.
 */
export function useMarkAppReady(enabled = true): void {
  useEffect(() => {
    if (enabled) document.documentElement.dataset.appReady = 'true';
  }, [enabled]);
}
