import { menuOutline } from 'ionicons/icons';
import { useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Button } from '../components/Button';
import { Icon } from '../components/Icon';
import { drawerOpenAtom } from '../components/dialogs';

export function MenuButton({ className }: { className?: string }) {
  const { t } = useTranslation();
  const open = useSetAtom(drawerOpenAtom);
  return (
    <Button fill="clear" className={className} onClick={() => open(true)} label={t('a11y.openMenu')} testId="menu-button">
      <Icon icon={menuOutline} className="toolbar-icon" />
    </Button>
  );
}
