import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Dialog } from '../../../src/components/Dialog';

function Harness({ dismissible = true, closeLabel }: { dismissible?: boolean; closeLabel?: string }) {
  const [open, setOpen] = useState(true);
  return (
    <>
      <p data-testid="state">{open ? 'open' : 'closed'}</p>
      <Dialog open={open} onClose={() => setOpen(false)} labelledBy="t" dismissible={dismissible} closeLabel={closeLabel} testId="dialog">
        <h2 id="t">Title</h2>
        <button type="button" onClick={() => setOpen(false)}>
          Close
        </button>
      </Dialog>
    </>
  );
}

const cancel = (dialog: HTMLElement) => fireEvent(dialog, new Event('cancel', { cancelable: true }));

describe('Dialog', () => {
  it('opens as a modal named by its title', () => {
    render(<Harness />);
    const dialog = screen.getByTestId('dialog') as HTMLDialogElement;
    expect(dialog.open).toBe(true);
    expect(dialog.getAttribute('aria-labelledby')).toBe('t');
  });

  it('closes on Escape and on the backdrop when dismissible', () => {
    render(<Harness />);
    const dialog = screen.getByTestId('dialog') as HTMLDialogElement;
    cancel(dialog);
    expect(screen.getByTestId('state').textContent).toBe('closed');
    expect(dialog.open).toBe(false);
  });

  it('closes on a backdrop click when dismissible', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByTestId('dialog'));
    expect(screen.getByTestId('state').textContent).toBe('closed');
  });

  it('stays open on Escape and the backdrop when not dismissible', async () => {
    const user = userEvent.setup();
    render(<Harness dismissible={false} />);
    const dialog = screen.getByTestId('dialog') as HTMLDialogElement;
    cancel(dialog);
    await user.click(dialog);
    expect(screen.getByTestId('state').textContent).toBe('open');
    expect(dialog.open).toBe(true);
  });

  it('does not close on a click inside its content', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('heading', { name: 'Title' }));
    expect(screen.getByTestId('state').textContent).toBe('open');
  });
});

describe('Dialog content', () => {
  it('is rendered only while the dialog is open', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    expect(screen.getByRole('heading', { name: 'Title' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('heading', { name: 'Title' })).toBeNull();
  });

  it('offers a named close button in the corner when asked, unless it cannot be dismissed', async () => {
    const user = userEvent.setup();
    const { unmount } = render(<Harness closeLabel="Закрыть" />);
    await user.click(screen.getByRole('button', { name: 'Закрыть' }));
    expect(screen.getByTestId('state').textContent).toBe('closed');
    unmount();
    render(<Harness closeLabel="Закрыть" dismissible={false} />);
    expect(screen.queryByRole('button', { name: 'Закрыть' })).toBeNull();
  });
});
