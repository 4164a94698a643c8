import type { Metadata } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { RoleGate } from '@/components/auth/role-gate';
import { UserMenu } from '@/components/auth/user-menu';
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
          <Link href="/" className="brand">
            Context Runtime
          </Link>
          <nav aria-label="Main">
            <Link href="/">Console</Link>
            <Link href="/traces">Traces</Link>
            <Link href="/plans">Plans</Link>
            <Link href="/approvals">Approvals</Link>
            <Link href="/knowledge">Knowledge</Link>
            <Link href="/calibration">Calibration</Link>
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
