/** The element id of a run's card on /approvals: `/approvals?run=<id>` scrolls to it (the console's "Awaiting approval" notice links there). */
export const runAnchor = (runId: string) => `approval-run-${runId.replace(/[^A-Za-z0-9_-]/g, '_')}`;
