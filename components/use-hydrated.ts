'use client';

import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False in the server's HTML and while React hydrates it, true once the page answers input. A form
 * that is typed into or submitted before that loses the input: React keeps its own state (the
 * console's goal starts as the demo goal), so a goal typed in that window ran the demo goal instead,
 * and a Run pressed in it submitted the bare HTML form (a page reload, no run). The console's
 * "required verification failed" browser test lost exactly that race on a loaded machine
 * (e2e/console.spec.ts, 150 s waiting for a badge its goal never earned).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
