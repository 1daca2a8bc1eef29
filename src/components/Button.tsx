// A button drawn as Ionic's ion-button (md) is, without Ionic: the shell's bar and the public pages
// use it, so a visitor's first page needs none of Ionic's JavaScript (DESIGN §6). Given `to`, it is
// a link to that route that looks the same.
import type { MouseEventHandler, ReactNode } from 'react';
import { Link } from 'react-router-dom';
import './Button.css';

export interface ButtonProps {
  children: ReactNode;
  /** Ionic's `fill`: solid (the default) or clear. */
  fill?: 'solid' | 'clear';
  size?: 'small' | 'default' | 'large';
  /** A route to go to: the button is then a link. */
  to?: string;
  onClick?: MouseEventHandler<HTMLElement>;
  className?: string;
  testId?: string;
  label?: string;
  title?: string;
  /** Extra data attributes, such as the theme toggle's `data-theme`. */
  data?: Record<`data-${string}`, string>;
}

export function Button({ children, fill = 'solid', size = 'default', to, onClick, className, testId, label, title, data }: ButtonProps) {
  const classes = ['app-button', `app-button--${fill}`, size === 'default' ? '' : `app-button--${size}`, className ?? '']
    .filter(Boolean)
    .join(' ');
  const common = { className: classes, onClick, 'aria-label': label, title, 'data-testid': testId, ...data };
  if (to !== undefined) {
    return (
      <Link to={to} {...common}>
        {children}
      </Link>
    );
  }
  return (
    <button type="button" {...common}>
      {children}
    </button>
  );
}
