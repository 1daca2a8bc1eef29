// One seller following tasks live, as the page does: the server's event stream
// (`GET /api/v1/events?ticket=…`, a one-use ticket from `POST /content/events/ticket`) stays open
// on one API node and says `task_updated` when a task ends, whichever process finished it. When
// the stream breaks (its node was killed) it is opened again with a new ticket on a node that is
// up, and the tasks still awaited are read once, so an end announced while no stream was open is
// not missed: those count as heard by reading, the others as heard live.
import type { TaskEvent } from '../../contract/content';
import { isConnectionFailure, json, type FleetClient } from './fleet-nodes';

export interface Heard {
  status: string;
  /** `event`: on the stream; `read`: by reading the task after the stream was opened again. */
  by: 'event' | 'read';
}

const FINAL = new Set(['completed', 'partially_completed', 'failed']);

export class TaskFollower {
  private readonly ended = new Map<string, Heard>();
  private readonly waiting = new Map<string, { resolve: (heard: Heard) => void; reject: (error: Error) => void }>();
  private reader: ReadableStreamDefaultReader<string> | null = null;
  private closed = false;
  /** The stream could not be opened again: nothing will be heard. */
  private lost = false;
  /** Why the stream had to be opened again, each time it did. */
  readonly breaks: string[] = [];

  constructor(
    private readonly client: FleetClient,
    private readonly headers: Record<string, string>,
  ) {}

  /** Opens the stream (with a ticket, on the next node up). */
  async open(): Promise<void> {
    const { data } = await this.client.call('POST /api/v1/content/events/ticket', '/api/v1/content/events/ticket', { method: 'POST', headers: this.headers }, json<{ data: { ticket: string } }>);
    // A ticket opens one stream: sent again to another node it still works when the first node
    // never got it; a stream that broke later is opened from a new ticket (reopen).
    const answer = await this.client.call('GET /api/v1/events', `/api/v1/events?ticket=${encodeURIComponent(data.ticket)}`, { timeoutMs: 0 }, async (a) => a);
    this.reader = answer.body!.pipeThrough(new TextDecoderStream()).getReader();
    void this.read(this.reader);
  }

  private async read(reader: ReadableStreamDefaultReader<string>) {
    let buffer = '';
    let why = 'ended by the server';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          this.dispatch(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
      }
    } catch (error) {
      // the connection broke: its node went away
      why = isConnectionFailure(error) ? 'connection lost' : error instanceof Error ? error.message : String(error);
    }
    if (!this.closed) await this.reopen(why);
  }

  private dispatch(block: string) {
    const type = /^event: (.+)$/m.exec(block)?.[1];
    const data = /^data: (.+)$/m.exec(block)?.[1];
    if (type !== 'task_updated' || !data) return;
    const event = JSON.parse(data) as TaskEvent;
    if (FINAL.has(event.status)) this.settle(event.task_id, { status: event.status, by: 'event' });
  }

  private settle(taskId: string, heard: Heard) {
    if (this.ended.has(taskId)) return;
    this.ended.set(taskId, heard);
    this.waiting.get(taskId)?.resolve(heard);
    this.waiting.delete(taskId);
  }

  /** Opens the stream again after it broke, then reads the tasks still awaited. */
  private async reopen(why: string) {
    this.breaks.push(why);
    for (let attempt = 1; !this.closed; attempt += 1) {
      try {
        await this.open();
        break;
      } catch {
        // Each failed call is counted as an error. After a few tries the tasks awaited are given
        // up on: no node answers.
        if (attempt === 3) {
          this.lost = true;
          for (const { reject } of this.waiting.values()) reject(new Error('the event stream could not be opened again'));
          this.waiting.clear();
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
    for (const taskId of [...this.waiting.keys()]) {
      const { data } = await this.client
        .call('GET /api/v1/content/tasks/:id', `/api/v1/content/tasks/${taskId}`, { headers: this.headers }, json<{ data: { status: string } }>)
        .catch(() => ({ data: { status: 'unknown' } }));
      if (FINAL.has(data.status)) this.settle(taskId, { status: data.status, by: 'read' });
    }
  }

  /** The task's end as the stream tells it; rejects at `deadline` (Date.now() ms). */
  waitFor(taskId: string, deadline: number): Promise<Heard> {
    const known = this.ended.get(taskId);
    if (known) return Promise.resolve(known);
    if (this.lost) return Promise.reject(new Error('the event stream could not be opened again'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(taskId);
        reject(new Error(`no end of task ${taskId} heard before the run's deadline`));
      }, Math.max(0, deadline - Date.now()));
      this.waiting.set(taskId, {
        resolve: (heard) => {
          clearTimeout(timer);
          resolve(heard);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
    });
  }

  close(): void {
    this.closed = true;
    void this.reader?.cancel().catch(() => {});
  }
}
