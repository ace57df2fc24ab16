import type { ReactNode } from 'react';

export function Banner({ kind = 'error', children, onClose }: { kind?: 'error' | 'warning' | 'info'; children: ReactNode; onClose?: () => void }) {
  return (
    <div className={`banner banner-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      <div className="banner-body">{children}</div>
      {onClose && (
        <button className="icon-btn" aria-label="Dismiss" onClick={onClose}>
          ×
        </button>
      )}
    </div>
  );
}
