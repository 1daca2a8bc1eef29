// The update on offer, if any. Kept apart so the shell can watch it without loading the update
// code (and its response schemas) before there is anything to offer.
import { atom } from 'jotai';
import type { UpdateOffer } from './update-controller';

export const updateOfferAtom = atom<UpdateOffer | null>(null);
