import { IonButton } from '@ionic/react';
import { menuOutline } from 'ionicons/icons';
import { useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Icon } from '../components/Icon';
import { drawerOpenAtom } from '../components/dialogs';

export function MenuButton({ className }: { className?: string }) {
  const { t } = useTranslation();
  const open = useSetAtom(drawerOpenAtom);
  return (
    <IonButton className={className} onClick={() => open(true)} aria-label={t('a11y.openMenu')} data-testid="menu-button">
      <Icon icon={menuOutline} className="toolbar-icon" />
    </IonButton>
  );
}
