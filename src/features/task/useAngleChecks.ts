// Once a photo is up, the server checks it against the shooting requirements; what it finds stays
// on the slot (in the draft) so the seller can retake before paying. The photos still going up
// come first: a check takes the server seconds of work, and while it runs the server takes the
// uploads' bytes in more slowly, so a photo waits for its check until no upload is running (one
// waiting out a backoff holds nothing up).
import { useEffect, useRef } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { SHOE_VIEWS } from '../../../contract/enums';
import { verifyAngle } from '../../capture/api/verify-angle';
import { saveWarnings } from '../../capture/drafts';
import { db } from '../../offline/db';
import { sendingUploads } from '../../offline/jobs/upload';
import type { DraftKey, DraftRecord } from '../../offline/records';

export function useAngleChecks(key: DraftKey | null, draft: DraftRecord | undefined) {
  /** Photos asked about: each once, again only if the question failed. */
  const asked = useRef(new Set<string>());
  const sending = useLiveQuery(() => sendingUploads(db), []);
  useEffect(() => {
    if (!key || !draft || sending !== 0) return;
    for (const view of SHOE_VIEWS) {
      const slot = draft.slots[view];
      if (!slot || slot.state !== 'uploaded' || !slot.materialId || slot.warnings || asked.current.has(slot.photoId)) continue;
      asked.current.add(slot.photoId);
      const materialId = slot.materialId;
      // Asked in turn: by then the photo may have left the slot, and its material the server.
      const stillThere = async () => (await db.drafts.get(key))?.slots[view]?.materialId === materialId;
      void verifyAngle(materialId, view, stillThere)
        .then((result) => saveWarnings(key, view, slot.photoId, result.findings.filter((f) => !f.ok).map((f) => f.message)))
        .catch(() => asked.current.delete(slot.photoId));
    }
  }, [key, draft, sending]);
}
