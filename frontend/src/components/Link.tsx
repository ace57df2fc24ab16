import type { ReactNode } from 'react';
import { onLinkClick } from '../router';

export function Link({ to, children, className, title }: { to: string; children: ReactNode; className?: string; title?: string }) {
  return (
    <a href={to} className={className} title={title} onClick={(e) => onLinkClick(e, to)}>
      {children}
    </a>
  );
}
