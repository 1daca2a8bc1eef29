// Retrying a publication's failed results: each press is a new publication onto the same card,
// under a key kept until the server has answered, so a press whose answer was lost and is made
// again publishes once. A publication retried here offers no second retry: its retry does.
import { useRef, useState } from 'react';
import type { Publication } from '../../contract/publisher';
import { showToast } from '../components/toast';
import { publish } from './api';
import { retryRequest } from './rules';

export function useRetry(onStarted: (publication: Publication) => void) {
  const keys = useRef(new Map<string, string>());
  const [busy, setBusy] = useState<string | null>(null);
  const [retried, setRetried] = useState<ReadonlySet<string>>(() => new Set());

  const retry = async (publication: Publication) => {
    const request = retryRequest(publication);
    if (!request) return;
    const key = keys.current.get(publication.id) ?? crypto.randomUUID();
    keys.current.set(publication.id, key);
    setBusy(publication.id);
    try {
      const started = await publish(request, key);
      keys.current.delete(publication.id);
      setRetried((ids) => new Set(ids).add(publication.id));
      onStarted(started);
    } catch (error) {
      showToast(error instanceof Error ? error.message : String(error), 'error');
    } finally {
      setBusy(null);
    }
  };

  return { retry, busy, retried };
}
