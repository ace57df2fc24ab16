// A workflow's history in the workflows list: every version, what it was, and from each one a
// comparison with the version before it, a comparison with any other, or a restore.
import { useState } from 'react';
import type { Workflow } from '../api/types';
import { Link } from '../components/Link';
import { when } from '../format/dates';
import { compareUrl, versionUrl } from './links';
import { RestoreButton } from './RestoreButton';
import { useVersionList } from './useVersions';
import './versions.css';

/** `blocked`: why the role cannot restore (null: it can); the button is off with it, as the API would refuse. */
export function VersionHistory({ id, onRestored, blocked = null }: { id: number; onRestored?: (wf: Workflow) => void; blocked?: string | null }) {
  const versions = useVersionList(id);
  const [notice, setNotice] = useState<{ text: string; version: number } | null>(null);
  if (versions.error) return <div className="versions muted">{versions.error}</div>;
  if (!versions.data) return <div className="versions muted">Loading versions…</div>;
  const list = versions.data;
  const latest = list[0]?.version ?? 0;
  const restored = (wf: Workflow, from: number) => {
    setNotice({ text: `Restored version ${from} as version ${wf.version}.`, version: wf.version });
    void versions.reload();
    onRestored?.(wf);
  };
  return (
    <div className="version-history">
      {notice && (
        <p className="small version-notice" role="status">
          {notice.text} <Link to={compareUrl(id, notice.version - 1, notice.version)}>See what the restore changed</Link>
        </p>
      )}
      <ul className="versions" data-testid="versions">
        {list.map((v) => {
          const previous = list.find((o) => o.version < v.version);
          return (
            <li key={v.version} data-version={v.version}>
              <Link to={versionUrl(id, v.version)}>Version {v.version}</Link>
              <span className="muted small">{when(v.created_at)}</span>
              <span className={`pill small ${v.valid ? 'pill-ok' : 'pill-bad'}`}>{v.valid ? 'valid' : 'draft'}</span>
              <span className="muted small">{v.version === latest ? 'latest' : ''}</span>
              <span className="spacer" />
              {/* Every row has the same three places, so the actions line up down the list. */}
              <span className="version-action">
                {previous && (
                  <Link to={compareUrl(id, previous.version, v.version)} className="btn small ghost">
                    Compare with previous
                  </Link>
                )}
              </span>
              <span className="version-action">
                {list.length > 1 && (
                  <Link to={v.version === latest ? compareUrl(id, undefined, latest) : compareUrl(id, v.version, latest)} className="btn small ghost">
                    Compare…
                  </Link>
                )}
              </span>
              <span className="version-action">
                {v.version !== latest && (
                  <RestoreButton workflowId={id} version={v.version} latest={latest} onRestored={(wf) => restored(wf, v.version)} className="btn small ghost" compact blocked={blocked} />
                )}
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
