'use client';
/** Scrolls to and focuses the card of the run `/approvals?run=<id>` names, once, when it has rendered. */
import { useEffect, useRef } from 'react';
import { runAnchor } from './run-anchor';

export function useLinkedRunScroll(runId: string | undefined): void {
  const done = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!runId || done.current === runId) return;
    const card = document.getElementById(runAnchor(runId));
    if (!card) return;
    done.current = runId;
    card.scrollIntoView({ block: 'start' });
    // Focus moves there too, so a keyboard or screen-reader user lands where the link pointed.
    card.focus({ preventScroll: true });
  });
}
