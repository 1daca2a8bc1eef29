// The guided camera (SPEC §2, §4, §8): the rear camera full screen with the outline of the
// current angle and a sample shot of it, a shutter, retake of the previous shot and the torch where the phone has one.
// Each shot is a square 2080×2080 JPEG. Every way the camera can fail is explained with a way
// on: picking files instead.
import { useEffect, useRef, useState } from 'react';
import { IonButton } from '@ionic/react';
import { arrowUndoOutline, closeOutline, flashlightOutline } from 'ionicons/icons';
import { useTranslation } from 'react-i18next';
import type { ShoeView } from '../../contract/enums';
import { Dialog } from '../components/Dialog';
import { Icon } from '../components/Icon';
import { ViewIllustration, ViewSample } from './ViewIllustration';
import './camera.css';

export const SHOT_SIZE = 2080;

type CameraError = 'unsupported' | 'insecure' | 'denied' | 'notFound' | 'failed';

function cameraError(error: unknown): CameraError {
  const name = (error as { name?: string }).name;
  if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError') return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'DevicesNotFoundError') return 'notFound';
  return 'failed';
}

/** A square crop from the middle of the frame, scaled to 2080×2080, as JPEG. */
export async function squareShot(video: HTMLVideoElement): Promise<Blob> {
  const side = Math.min(video.videoWidth, video.videoHeight);
  if (!side) throw new Error('no frame');
  const canvas = document.createElement('canvas');
  canvas.width = SHOT_SIZE;
  canvas.height = SHOT_SIZE;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no canvas');
  context.drawImage(video, (video.videoWidth - side) / 2, (video.videoHeight - side) / 2, side, side, 0, 0, SHOT_SIZE, SHOT_SIZE);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('no blob'))), 'image/jpeg', 0.92),
  );
}

interface TorchCapabilities extends MediaTrackCapabilities {
  torch?: boolean;
}

export interface CameraDialogProps {
  /** The angles to shoot, in order (six for the guided sequence, one for a retake). */
  views: ShoeView[];
  onShot: (view: ShoeView, photo: Blob) => Promise<void>;
  onClose: () => void;
  onPickFiles: () => void;
}

export function CameraDialog({ views, onShot, onClose, onPickFiles }: CameraDialogProps) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const track = useRef<MediaStreamTrack | null>(null);
  const [index, setIndex] = useState(0);
  const [ready, setReady] = useState(false);
  const [failure, setFailure] = useState<CameraError | null>(null);
  const [shotFailed, setShotFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [torch, setTorch] = useState<boolean | null>(null);
  const insecure = typeof window !== 'undefined' && !window.isSecureContext;
  const unsupported = !insecure && !navigator.mediaDevices?.getUserMedia;
  const problem: CameraError | null = insecure ? 'insecure' : unsupported ? 'unsupported' : failure;

  useEffect(() => {
    if (insecure || unsupported) return;
    let stream: MediaStream | null = null;
    let cancelled = false;
    navigator.mediaDevices
      .getUserMedia({
        audio: false,
        video: { facingMode: { ideal: 'environment' }, width: { ideal: SHOT_SIZE }, height: { ideal: SHOT_SIZE } },
      })
      .then(async (media) => {
        stream = media;
        if (cancelled) return;
        const [first] = media.getVideoTracks();
        track.current = first ?? null;
        const capabilities = (first?.getCapabilities?.() ?? {}) as TorchCapabilities;
        setTorch(capabilities.torch ? false : null);
        if (video.current) {
          video.current.srcObject = media;
          await video.current.play().catch(() => {});
        }
        setReady(true);
      })
      .catch((error: unknown) => {
        if (!cancelled) setFailure(cameraError(error));
      });
    return () => {
      cancelled = true;
      for (const t of stream?.getTracks() ?? []) t.stop();
      track.current = null;
    };
  }, [insecure, unsupported]);

  const view = views[Math.min(index, views.length - 1)]!;

  const shoot = async () => {
    if (!video.current || busy) return;
    setBusy(true);
    setShotFailed(false);
    try {
      const blob = await squareShot(video.current);
      await onShot(view, blob);
      if (index + 1 >= views.length) onClose();
      else setIndex(index + 1);
    } catch {
      setShotFailed(true);
    } finally {
      setBusy(false);
    }
  };

  const toggleTorch = async () => {
    if (torch === null || !track.current) return;
    try {
      await track.current.applyConstraints({ advanced: [{ torch: !torch } as MediaTrackConstraintSet] });
      setTorch(!torch);
    } catch {
      setTorch(null);
    }
  };

  const title = t('camera.title', { view: t(`task.views.${view}`), index: index + 1, total: views.length });
  return (
    <Dialog open onClose={onClose} labelledBy="camera-title" variant="fullscreen" testId="camera-dialog">
      <div className="camera">
        <div className="camera__bar">
          <h2 id="camera-title">{title}</h2>
          <button type="button" className="camera__icon" onClick={onClose} aria-label={t('camera.close')}>
            <Icon icon={closeOutline} />
          </button>
        </div>
        {problem ? (
          <div className="camera__problem" role="alert">
            <p>{t(`camera.errors.${problem}`)}</p>
            <IonButton onClick={onPickFiles}>{t('camera.pickFiles')}</IonButton>
          </div>
        ) : (
          <>
            <div className="camera__frame">
              <video ref={video} className="camera__video" playsInline muted aria-hidden="true" />
              <ViewIllustration view={view} className="camera__outline" />
              <figure className="camera__sample" data-testid="camera-sample" data-view={view}>
                <ViewSample view={view} label={t('camera.sampleAlt', { view: t(`task.views.${view}`) })} />
                <figcaption>{t('camera.sample')}</figcaption>
              </figure>
              {!ready ? <p className="camera__starting">{t('camera.starting')}</p> : null}
            </div>
            <p className="camera__hint">{t('camera.hint')}</p>
            {shotFailed ? (
              <p className="camera__error" role="alert">
                {t('camera.errors.capture')}
              </p>
            ) : null}
            <div className="camera__controls">
              <button
                type="button"
                className="camera__icon"
                onClick={() => setIndex(Math.max(0, index - 1))}
                disabled={index === 0 || busy}
                aria-label={t('camera.retake')}
              >
                <Icon icon={arrowUndoOutline} />
              </button>
              <button
                type="button"
                className="camera__shutter"
                onClick={() => void shoot()}
                disabled={!ready || busy}
                aria-label={t('camera.shutter')}
                data-testid="camera-shutter"
              />
              <button
                type="button"
                className="camera__icon"
                onClick={() => void toggleTorch()}
                disabled={torch === null}
                aria-pressed={torch ?? undefined}
                aria-label={torch ? t('camera.torchOff') : t('camera.torchOn')}
              >
                <Icon icon={flashlightOutline} />
              </button>
            </div>
          </>
        )}
      </div>
    </Dialog>
  );
}
