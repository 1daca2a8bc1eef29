import { moonOutline, sunnyOutline } from 'ionicons/icons';
import { useAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { themeAtom } from '../lib/store';
import { Button } from './Button';
import { Icon } from './Icon';

export function ThemeToggle() {
  const { t } = useTranslation();
  const [theme, setTheme] = useAtom(themeAtom);
  const label = theme === 'dark' ? t('theme.toLight') : t('theme.toDark');
  return (
    <Button
      fill="clear"
      onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')}
      label={label}
      title={label}
      testId="theme-toggle"
      data={{ 'data-theme': theme }}
    >
      <Icon icon={theme === 'dark' ? sunnyOutline : moonOutline} className="toolbar-icon" />
    </Button>
  );
}
