// The right-hand drawer of both layouts: a titled list of destinations and actions.
import type { ReactNode } from 'react';
import { useAtom } from 'jotai';
import { closeOutline } from 'ionicons/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Dialog } from '../components/Dialog';
import { Icon } from '../components/Icon';
import { drawerOpenAtom } from '../components/dialogs';
import './drawer.css';

export function Drawer({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  const [open, setOpen] = useAtom(drawerOpenAtom);
  return (
    <Dialog open={open} onClose={() => setOpen(false)} labelledBy="drawer-title" variant="drawer" testId="drawer">
      <div className="drawer__head">
        <h2 id="drawer-title">{title}</h2>
        <button type="button" className="drawer__close" onClick={() => setOpen(false)} aria-label={t('a11y.closeMenu')}>
          <Icon icon={closeOutline} />
        </button>
      </div>
      <nav className="drawer__nav">{children}</nav>
    </Dialog>
  );
}

export function DrawerLink({ to, icon, label }: { to: string; icon?: string; label: string }) {
  const setOpen = useAtom(drawerOpenAtom)[1];
  return (
    <Link to={to} className="drawer__item" onClick={() => setOpen(false)}>
      {icon ? <Icon icon={icon} /> : null}
      <span>{label}</span>
    </Link>
  );
}

export function DrawerButton({
  icon,
  label,
  onClick,
  testId,
}: {
  icon?: string;
  label: string;
  onClick: () => void;
  testId?: string;
}) {
  const setOpen = useAtom(drawerOpenAtom)[1];
  return (
    <button
      type="button"
      className="drawer__item"
      data-testid={testId}
      onClick={() => {
        setOpen(false);
        onClick();
      }}
    >
      {icon ? <Icon icon={icon} /> : null}
      <span>{label}</span>
    </button>
  );
}
