// The app's own "leave this page?" dialog, asked by the router's leave guard.
import { useEffect, useRef, useState } from 'react';
import { setConfirmer } from '../router';
import { Modal } from './Modal';

interface Pending {
  question: string;
  answer(leave: boolean): void;
}

export function LeaveConfirm() {
  const [pending, setPending] = useState<Pending | null>(null);
  const stayRef = useRef<HTMLButtonElement>(null);

  useEffect(
    () =>
      setConfirmer(
        (question) =>
          new Promise<boolean>((resolve) => {
            setPending({
              question,
              answer: (leave) => {
                setPending(null);
                resolve(leave);
              },
            });
          }),
      ),
    [],
  );

  if (!pending) return null;
  return (
    <Modal onClose={() => pending.answer(false)}>
      <div className="modal modal-narrow" role="alertdialog" aria-modal="true" aria-labelledby="leave-title" data-testid="leave-confirm">
        <header className="modal-head">
          <h3 id="leave-title">Leave without saving?</h3>
        </header>
        <p>{pending.question}</p>
        <footer className="modal-foot">
          <span className="spacer" />
          <button className="btn danger" onClick={() => pending.answer(true)} data-testid="leave-discard">
            Discard changes and leave
          </button>
          <button className="btn primary" ref={stayRef} data-autofocus onClick={() => pending.answer(false)} data-testid="leave-stay">
            Stay
          </button>
        </footer>
      </div>
    </Modal>
  );
}
