'use client';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import type { ReactNode } from 'react';

/**
 * A header link that prefetches its page when the pointer or focus reaches it, not when it scrolls
 * into view. The header is on every page, so viewport prefetching asked the server for five or six
 * other pages during every page load, on the same two cores that were drawing the page: a 200-node
 * plan missed its 2 s budget (e2e/plan-explorer-timing.spec.ts) partly on that work. A hover still gives
 * the next page a head start of a few hundred milliseconds before the click.
 */
export function NavLink({ href, className, children }: { readonly href: string; readonly className?: string; readonly children: ReactNode }) {
  const router = useRouter();
  const prefetch = () => router.prefetch(href);
  return (
    <Link href={href} className={className} prefetch={false} onMouseEnter={prefetch} onFocus={prefetch} onTouchStart={prefetch}>
      {children}
    </Link>
  );
}
