// Open/closed state of app-wide dialogs and drawers, kept apart from their components so any
// page can open one.
import { atom } from 'jotai';

/** The account dialogs of SPEC §2; one is open at a time. */
export type AccountDialog = 'login' | 'register' | 'forgot' | 'change-password' | 'user-info';

export const accountDialogAtom = atom<AccountDialog | null>(null);
export const drawerOpenAtom = atom(false);
