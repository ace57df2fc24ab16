// A file whose workflow name is taken: is it a new version of that workflow, or another workflow?
import type { WorkflowSummary } from '../../api/types';
import { Modal } from '../../components/Modal';

export interface ImportClash {
  file: File;
  existing: WorkflowSummary;
}

interface Props {
  clash: ImportClash;
  onCancel(): void;
  /** Import the file as a workflow of its own. */
  onSeparate(file: File): void;
  /** Import the file as the next version of the existing workflow. */
  onNewVersion(file: File, into: number): void;
}

export function ImportClashDialog({ clash, onCancel, onSeparate, onNewVersion }: Props) {
  return (
    <Modal onClose={onCancel} label="This workflow already exists">
      <div className="modal modal-medium" data-testid="import-clash">
        <header className="modal-head">
          <h3>“{clash.existing.name}” already exists</h3>
        </header>
        <p>
          {clash.file.name} holds a workflow with the same name as one of yours. Add it as the next version of that workflow (its history
          keeps the earlier versions), or import it as a separate workflow?
        </p>
        <footer className="modal-foot">
          <button className="btn ghost" onClick={onCancel}>
            Cancel
          </button>
          <span className="spacer" />
          <button className="btn" data-testid="import-separate" onClick={() => onSeparate(clash.file)}>
            Import as another workflow
          </button>
          <button className="btn primary" data-autofocus data-testid="import-as-version" onClick={() => onNewVersion(clash.file, clash.existing.id)}>
            Add as a new version
          </button>
        </footer>
      </div>
    </Modal>
  );
}
