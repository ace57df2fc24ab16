// What the last paste, duplicate, wrap or unwrap has to say (ids renamed,
// references that could not stay valid), over the canvas until dismissed.
import { Banner } from '../../components/Banner';
import { useEditor, useEditorStore } from '../../store/context';
import './selection.css';

export function EditNoticeBar() {
  const store = useEditorStore();
  const notice = useEditor((s) => s.notice);
  if (!notice) return null;
  return (
    <div className="edit-notice" data-testid="edit-notice">
      <Banner kind={notice.kind} onClose={() => store.getState().notify(null)}>
        {notice.text}
        {notice.details && (
          <ul>
            {notice.details.map((d) => (
              <li key={d}>{d}</li>
            ))}
          </ul>
        )}
      </Banner>
    </div>
  );
}
