// A test app that listens on the address its PUBLIC_URL names: for the marketplaces' stand-ins,
// which fetch pictures from the signed links the server gives, as Ozon and Amazon do.
import net from 'node:net';
import { createTestApp, type TestApp } from './test-app';

/** A port nobody listens on yet: the server's PUBLIC_URL must name it before it starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

export async function listeningTestApp(env: Record<string, string>): Promise<TestApp> {
  const port = await freePort();
  const t = await createTestApp({ ...env, PUBLIC_URL: `http://127.0.0.1:${port}` });
  await t.app.listen({ port, host: '127.0.0.1' });
  return t;
}
