// A seller's shoe photos uploaded through the real API (register, then PUT the bytes).
import type { TestApp } from './test-app';
import type { ShoeFixtureOptions } from '../fixtures/shoes';
import { FIVE_VIEWS, viewPhoto } from '../fixtures/views';

let counter = 0;

export async function uploadPhoto(t: TestApp, token: string, bytes: Buffer, view: string): Promise<string> {
  const registered = await t.app.inject({
    method: 'POST',
    url: '/api/v1/materials/upload',
    headers: { authorization: `Bearer ${token}`, 'idempotency-key': `photo-${Date.now()}-${(counter += 1)}` },
    payload: { file_name: `${view}.jpg`, file_type: 'image/jpeg', file_size: bytes.length, description: JSON.stringify({ view }) },
  });
  if (registered.statusCode !== 200) throw new Error(registered.body);
  const ticket = registered.json().data;
  const put = await t.app.inject({ method: 'PUT', url: ticket.presigned_url, headers: { 'content-type': 'image/jpeg' }, payload: bytes });
  if (put.statusCode !== 200) throw new Error(put.body);
  return ticket.material_id as string;
}

/** Photos of the five required views; `dark` shoots the named view in far too little light, which the photo check refuses. */
export async function uploadViews(
  t: TestApp,
  token: string,
  options: { dark?: string; fixture?: ShoeFixtureOptions } = {},
): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, view] of FIVE_VIEWS.entries()) {
    const photo = await viewPhoto(i, { ...options.fixture, ...(view === options.dark ? { exposure: 0.2 } : {}) });
    ids.push(await uploadPhoto(t, token, photo.jpeg, view));
  }
  return ids;
}
