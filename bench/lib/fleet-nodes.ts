// The simulated sellers' way to the fleet's API nodes, as a load balancer in front of them would
// be: each request goes to the next node that is up, in turn. A request that cannot connect, or
// whose answer is cut off (its node was killed), marks that node down and is sent once more to
// another: a retry, not an error. Every request the sellers make carries what makes sending it
// again safe (an Idempotency-Key, a signed upload address, a read). A node marked down is asked
// for /api/health every second and taken back when it answers, so a keep-alive socket closed at
// the wrong moment cannot take a live node out. Each call is timed under its route, retry
// included; one that still fails, answers an unexpected status or times out is an error, kept
// with why.

/** Why a socket failed: the peer is gone or reset the connection. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/** True for fetch's errors that mean the node could not be reached or dropped the connection. */
export function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof TypeError)) return false;
  const cause = (error as { cause?: { code?: string } }).cause;
  // `terminated`: the body was being read when the socket closed.
  return (error.message === 'fetch failed' || error.message === 'terminated') && CONNECTION_CODES.has(cause?.code ?? '');
}

export class AnswerError extends Error {
  constructor(
    readonly status: number,
    body: string,
  ) {
    super(`HTTP ${status}: ${body.slice(0, 200)}`);
    this.name = 'AnswerError';
  }
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
  /** How long the whole call may take; 0 for a stream that stays open (SPEC §7: 10 s). */
  timeoutMs?: number;
}

export interface Incident {
  route: string;
  reason: string;
  /** Date.now() when it happened. */
  at: number;
}

const describe = (error: unknown) => {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { cause?: { code?: string } }).cause?.code;
  return code ? `${error.message} (${code})` : error.message;
};

export class FleetClient {
  private turn = 0;
  private readonly down = new Set<string>();
  private readonly probe: NodeJS.Timeout;
  /** Milliseconds per call, by route, retries included. */
  readonly timings = new Map<string, number[]>();
  /** Calls sent again to another node after a connection failure. */
  readonly retries: Incident[] = [];
  /** Calls that failed for good, and what else went wrong for a seller. */
  readonly errors: Incident[] = [];

  constructor(readonly nodes: readonly string[]) {
    this.probe = setInterval(() => void this.lookAgain(), 1000);
    this.probe.unref();
  }

  /** The next node up, in turn, other than `not`. */
  private pick(not?: string): string {
    const others = this.nodes.filter((node) => node !== not);
    const up = others.filter((node) => !this.down.has(node));
    const pool = up.length > 0 ? up : others.length > 0 ? others : this.nodes;
    this.turn += 1;
    return pool[this.turn % pool.length]!;
  }

  private async lookAgain() {
    for (const node of [...this.down]) {
      try {
        if ((await fetch(`${node}/api/health`, { signal: AbortSignal.timeout(900) })).ok) this.down.delete(node);
      } catch {
        // still down
      }
    }
  }

  /** Something went wrong for a seller outside a call (a task that did not complete…). */
  fail(route: string, reason: string): void {
    this.errors.push({ route, reason, at: Date.now() });
  }

  /**
   * Sends the request to the next node up and hands the answer (2xx) to `read`; sent once more to
   * another node when the first cannot be reached or drops the answer. Throws after recording an error.
   */
  async call<T>(route: string, path: string, options: RequestOptions, read: (answer: Response) => Promise<T>): Promise<T> {
    const started = performance.now();
    const timeoutMs = options.timeoutMs ?? 10_000;
    let node = this.pick();
    for (let attempt = 0; ; attempt += 1) {
      try {
        const answer = await fetch(new URL(path, node), {
          method: options.method ?? 'GET',
          headers: options.headers,
          body: options.body,
          signal: timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined,
        });
        if (!answer.ok) throw new AnswerError(answer.status, await answer.text());
        const value = await read(answer);
        const times = this.timings.get(route) ?? [];
        times.push(performance.now() - started);
        this.timings.set(route, times);
        return value;
      } catch (error) {
        if (attempt === 0 && isConnectionFailure(error)) {
          this.down.add(node);
          this.retries.push({ route, reason: describe(error), at: Date.now() });
          node = this.pick(node);
          continue;
        }
        this.fail(route, describe(error));
        throw error;
      }
    }
  }

  stop(): void {
    clearInterval(this.probe);
  }
}

export const json = <T>(answer: Response) => answer.json() as Promise<T>;
/** Reads the whole answer; its size in bytes. */
export const drain = async (answer: Response) => (await answer.arrayBuffer()).byteLength;
