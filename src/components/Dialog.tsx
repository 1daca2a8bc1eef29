// Dialogs and drawers on the native <dialog> element: the browser traps focus, closes on Escape,
// hides the page behind from screen readers and returns focus when it closes.
import { useEffect, useRef, type ReactNode } from 'react';
import { closeOutline } from 'ionicons/icons';
import { Icon } from './Icon';
import './Dialog.css';

export interface DialogProps {
  open: boolean;
  /** Called when the seller closes it (Escape, the backdrop, or a close button calling it). */
  onClose: () => void;
  /** Id of the element that names the dialog. */
  labelledBy: string;
  /** False: Escape and the backdrop do not close it (a forced update). */
  dismissible?: boolean;
  variant?: 'center' | 'drawer' | 'fullscreen';
  children: ReactNode;
  testId?: string;
  /** Adds a close (×) button in the corner with this accessible name. */
  closeLabel?: string;
}

export function Dialog({
  open,
  onClose,
  labelledBy,
  dismissible = true,
  variant = 'center',
  children,
  testId,
  closeLabel,
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      className={`dialog dialog--${variant}`}
      aria-labelledby={labelledBy}
      data-testid={testId}
      onCancel={(event) => {
        event.preventDefault(); // React state decides whether it closes
        if (dismissible) onClose();
      }}
      onClick={(event) => {
        // A click on the dialog element itself (not its content) is a click on the backdrop.
        if (event.target === event.currentTarget && dismissible) onClose();
      }}
    >
      {/* Content exists only while open: closed dialogs cost nothing at start-up. */}
      {open ? (
        <div className="dialog__body">
          {closeLabel && dismissible ? (
            <button type="button" className="dialog__close icon-button" onClick={onClose} aria-label={closeLabel}>
              <Icon icon={closeOutline} />
            </button>
          ) : null}
          {children}
        </div>
      ) : null}
    </dialog>
  );
}
