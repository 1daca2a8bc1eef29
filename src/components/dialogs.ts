// Open/closed state of app-wide dialogs and drawers, kept apart from their components so any
// page can open one.
import { atom } from 'jotai';

export const signInDialogOpenAtom = atom(false);
export const drawerOpenAtom = atom(false);
