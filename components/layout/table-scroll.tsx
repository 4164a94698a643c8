import type { ReactNode } from 'react';

/**
 * The sideways scroller around a wide table. A keyboard user can only scroll what can take focus
 * (WCAG 2.1.1; axe's scrollable-region-focusable): so it is in the tab order, and — being focusable —
 * a named region, so a screen reader says what the focus landed on rather than "group".
 */
export function TableScroll({ label, children }: { readonly label: string; readonly children: ReactNode }) {
  return (
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
