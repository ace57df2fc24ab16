// The banners over the editor's canvas: read only, an earlier version, a restored draft, and the last notice.
import { Banner } from '../components/Banner';
import { Link } from '../components/Link';
import type { Draft } from '../store/drafts';
import { compareUrl } from '../versions/links';
import type { Notice } from './hooks/useNotice';

interface Props {
  workflowId: number | null;
  readOnlyBanner: string | null;
  viewingVersion: string | null;
  editDenied: string | null;
  restored: Draft | null;
  onDismissRestored(): void;
  onDiscardRestored(): void;
  notice: Notice | null;
  onCloseNotice(): void;
}

export function EditorBanners({ workflowId, readOnlyBanner, viewingVersion, editDenied, restored, onDismissRestored, onDiscardRestored, notice, onCloseNotice }: Props) {
  return (
    <>
      {readOnlyBanner && (
        <Banner kind="info">
          <span data-testid="read-only-banner">{readOnlyBanner}</span>
        </Banner>
      )}
      {viewingVersion && (
        <Banner kind="info">
          You are looking at version {viewingVersion}.{editDenied ? '' : ' Save to make it the latest version again.'}
          {workflowId !== null && (
            <>
              {' '}
              <Link to={compareUrl(workflowId, Number(viewingVersion))}>Compare it with the latest</Link>
            </>
          )}
        </Banner>
      )}
      {restored && (
        <Banner kind="info" onClose={onDismissRestored}>
          <span data-testid="draft-restored">
            Restored your unsaved edits from {new Date(restored.savedAt).toLocaleString()}
            {restored.basedOn !== null ? ` (made on version ${restored.basedOn})` : ''}. Save to keep them.
          </span>{' '}
          <button className="btn small ghost" onClick={onDiscardRestored} data-testid="discard-draft">
            Discard them
          </button>
        </Banner>
      )}
      {notice && (
        <Banner kind={notice.kind} onClose={onCloseNotice}>
          {notice.text}
        </Banner>
      )}
    </>
  );
}
