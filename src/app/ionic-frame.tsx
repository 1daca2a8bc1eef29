// The frame of a page in the Ionic app: IonPage (which its router outlet stacks and animates) and
// IonContent.
import { IonContent, IonPage, useIonViewDidEnter, useIonViewWillEnter } from '@ionic/react';
import type { Frame, PageProps } from '../layouts/frame';
import { uncoverPage } from './shell-cover';

function IonicPage({ testId, onEnter, children }: PageProps) {
  useIonViewWillEnter(onEnter, [onEnter]);
  // The first page on screen replaces the copy of the public page it took over from.
  useIonViewDidEnter(uncoverPage, []);
  return <IonPage data-testid={testId}>{children}</IonPage>;
}

export const IONIC_FRAME: Frame = { Page: IonicPage, Content: IonContent };
