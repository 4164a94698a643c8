import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { RoleGate } from '@/components/auth/role-gate';
import { UserMenu } from '@/components/auth/user-menu';
import { NavLink } from '@/components/layout/nav-link';
import { TRPCReactProvider } from '@/components/providers/trpc-provider';
import './globals.css';

export const metadata: Metadata = {
  // Pages name themselves ("Approvals"); the template adds the product, so tabs and history read "Approvals · Context Runtime".
  title: { template: '%s · Context Runtime', default: 'Context Runtime' },
  description: 'A query planner for LLM context: plans, explains and traces every answer.',
};

export default function RootLayout({ children }: { readonly children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <header className="site-header">
          <NavLink href="/" className="brand">
            Context Runtime
          </NavLink>
          <nav aria-label="Main">
            <NavLink href="/">Console</NavLink>
            <NavLink href="/traces">Traces</NavLink>
            <NavLink href="/plans">Plans</NavLink>
            <NavLink href="/approvals">Approvals</NavLink>
            <NavLink href="/knowledge">Knowledge</NavLink>
            <NavLink href="/calibration">Calibration</NavLink>
          </nav>
          <UserMenu />
        </header>
        <TRPCReactProvider>
          <main className="site-main">
            <RoleGate>{children}</RoleGate>
          </main>
        </TRPCReactProvider>
      </body>
    </html>
  );
}
