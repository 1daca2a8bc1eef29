// The link a run's uploads share. Several photos are worked at once so that while the server takes
// one in (checks, cleans and stores it: a good part of a second on a small machine), another's
// bytes keep the link busy. Sent side by side from the same moment, photos of one size also arrive
// at the same moment and are taken in together with the link idle, round after round; so a photo's
// bytes wait for the ones before to be mostly gone (see jobs/upload.ts), and the photos stay apart.
export interface Link {
  /**
   * Waits until the photo before has let the next one go; what it gives back lets the next one go
   * (once: calling it again does nothing).
   */
  take(): Promise<() => void>;
}

export function sharedLink(): Link {
  const waiting: (() => void)[] = [];
  let busy = false;
  return {
    async take() {
      if (busy) await new Promise<void>((resolve) => waiting.push(resolve));
      busy = true;
      let given = false;
      return () => {
        if (given) return;
        given = true;
        const next = waiting.shift();
        if (next) next();
        else busy = false;
      };
    },
  };
}
