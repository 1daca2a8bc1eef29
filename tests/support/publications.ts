// A publication followed through the API until its job has ended, with a bound sized for a busy
// machine (the platforms' stand-ins apply late on purpose in some tests).
import type { TestApp } from './test-app';

export interface EndedPublication {
  status: string;
  items: { position: number; status: string; message: string | null; remote_url: string | null }[];
}

export async function publicationEnded(t: TestApp, headers: Record<string, string>, id: string): Promise<EndedPublication> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const answer = (await t.app.inject({ method: 'GET', url: `/api/v1/publisher/publish/${id}`, headers })).json().data;
    if (['done', 'partial', 'failed'].includes(answer.status)) return answer as EndedPublication;
    if (Date.now() > deadline) throw new Error(`publication ${id} still ${answer.status}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
