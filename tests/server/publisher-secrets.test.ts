// A store's keys at rest (server/publisher/secrets.ts): sealed so that only this key opens them, for
// this connection only, and a node with another key says so.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lastFour, loadSecretsKey, open, seal, SecretDamaged, SecretsKeyMismatch } from '../../server/publisher/secrets';

const KEY = 'a passphrase long enough to be a SECRETS_KEY value';
const binding = 'connection-1|seller-1|wildberries';

describe('sealed store keys', () => {
  it('opens what it sealed, and the sealed text holds nothing of the secret', () => {
    const secrets = loadSecretsKey(KEY, os.tmpdir());
    const secret = '{"token":"eyJhbGciOiJFUzI1NiJ9.secret-token-body.sig"}';
    const sealed = seal(secrets, secret, binding);
    expect(sealed).not.toContain('secret-token-body');
    expect(Buffer.from(sealed.split('.').at(-1)!, 'base64url').toString('utf8')).not.toContain('secret-token-body');
    expect(open(secrets, sealed, binding)).toBe(secret);
    // A fresh nonce each time: the same secret never seals to the same text.
    expect(seal(secrets, secret, binding)).not.toBe(sealed);
  });

  it('does not open for another connection, nor once a byte is changed', () => {
    const secrets = loadSecretsKey(KEY, os.tmpdir());
    const sealed = seal(secrets, 'api-key-1234', binding);
    expect(() => open(secrets, sealed, 'connection-2|seller-1|wildberries')).toThrow(SecretDamaged);
    const parts = sealed.split('.');
    const body = Buffer.from(parts[4]!, 'base64url');
    body[0] = body[0]! ^ 1;
    parts[4] = body.toString('base64url');
    expect(() => open(secrets, parts.join('.'), binding)).toThrow(SecretDamaged);
    expect(() => open(secrets, 'not sealed at all', binding)).toThrow(SecretDamaged);
  });

  it('names a key mismatch rather than damage', () => {
    const sealed = seal(loadSecretsKey(KEY, os.tmpdir()), 'api-key-1234', binding);
    expect(() => open(loadSecretsKey(`${KEY} but another`, os.tmpdir()), sealed, binding)).toThrow(SecretsKeyMismatch);
  });

  it('without SECRETS_KEY makes one key file under DATA_DIR, readable by its owner only, and keeps it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'secrets-'));
    const first = loadSecretsKey(undefined, dir);
    const file = path.join(dir, 'secrets.key');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const sealed = seal(first, 'kept across restarts', binding);
    expect(open(loadSecretsKey(undefined, dir), sealed, binding)).toBe('kept across restarts');
    // The key lives in the file, not in anything derived from the directory.
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'secrets-'));
    expect(() => open(loadSecretsKey(undefined, other), sealed, binding)).toThrow(SecretsKeyMismatch);
  });

  it('shows the last four characters only', () => {
    expect(lastFour('abcdefgh1234')).toBe('1234');
  });
});
