import { IonButton } from '@ionic/react';
import { moonOutline, sunnyOutline } from 'ionicons/icons';
import { useAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { themeAtom } from '../lib/store';
import { Icon } from './Icon';

export function ThemeToggle() {
  const { t } = useTranslation();
  const [theme, setTheme] = useAtom(themeAtom);
  const label = theme === 'dark' ? t('theme.toLight') : t('theme.toDark');
  return (
    <IonButton
      onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')}
      aria-label={label}
      title={label}
      data-testid="theme-toggle"
      data-theme={theme}
    >
      <Icon icon={theme === 'dark' ? sunnyOutline : moonOutline} className="toolbar-icon" />
    </IonButton>
  );
}
