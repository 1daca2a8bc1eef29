// Where toasts appear: a live region, so screen readers announce each one. It is a popover so
// it shows above an open modal dialog too (both live in the browser's top layer).
import { useEffect, useRef } from 'react';
import { useAtomValue } from 'jotai';
import { toastsAtom } from './toast';
import './Toaster.css';

export function Toaster() {
  const toasts = useAtomValue(toastsAtom);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof element.showPopover !== 'function') return;
    if (element.matches(':popover-open')) element.hidePopover();
    if (toasts.length > 0) element.showPopover(); // re-shown to stay above a dialog opened since
  }, [toasts]);
  return (
    <div ref={ref} className="toaster" popover="manual" role="status" aria-live="polite">
      {toasts.map((toast) => (
        <p key={toast.id} className={`toast toast--${toast.tone}`} data-testid="toast">
          {toast.message}
        </p>
      ))}
    </div>
  );
}
