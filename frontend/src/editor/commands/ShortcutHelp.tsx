// The shortcut help (`?`): every keyboard shortcut of the editor, from SHORTCUTS.
import { Modal } from '../../components/Modal';
import { SHORTCUTS } from './shortcuts';
import './commandPalette.css';

export function ShortcutHelp({ onClose }: { onClose: () => void }) {
  const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
  return (
    <Modal onClose={onClose} label="Keyboard shortcuts">
      <div className="modal shortcut-help" data-testid="shortcut-help">
        <header className="modal-head">
          <h3>Keyboard shortcuts</h3>
          <button className="icon-btn" aria-label="Close" onClick={onClose} data-autofocus>
            ×
          </button>
        </header>
        <table className="shortcut-table">
          <thead>
            <tr>
              <th scope="col">Keys</th>
              <th scope="col">What it does</th>
              <th scope="col">Where</th>
            </tr>
          </thead>
          <tbody>
            {SHORTCUTS.map((s) => (
              <tr key={s.id} data-shortcut-id={s.id}>
                <td>
                  <kbd>{s.keys}</kbd>
                </td>
                <td>{s.description}</td>
                <td className="muted">{s.where}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {isMac && <p className="muted small">On a Mac, Cmd works wherever Ctrl is shown.</p>}
        {!isMac && <p className="muted small">On a Mac, use Cmd wherever Ctrl is shown.</p>}
      </div>
    </Modal>
  );
}
