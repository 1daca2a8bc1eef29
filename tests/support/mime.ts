// Reads the messages SoleStudio sends (as nodemailer writes them): the subject, the plain text
// and the HTML, decoded from base64 or quoted-printable.

export interface ReadMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch (encoding?.toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable': {
      const bytes = body
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => `%${hex}`)
        .replace(/%(?![0-9A-F]{2})/gi, '%25');
      return decodeURIComponent(bytes);
    }
    default:
      return body;
  }
}

function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_m, kind: string, text: string) =>
      kind.toLowerCase() === 'b'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeBody(text.replace(/_/g, ' '), 'quoted-printable'),
    );
}

function split(entity: string): { headers: Map<string, string>; body: string } {
  const normalised = entity.replace(/\r\n/g, '\n');
  const end = normalised.indexOf('\n\n');
  const head = end === -1 ? normalised : normalised.slice(0, end);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body: end === -1 ? '' : normalised.slice(end + 2) };
}

function parts(entity: string): { type: string; content: string }[] {
  const { headers, body } = split(entity);
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.startsWith('multipart/') && boundary) {
    return body
      .split(`--${boundary}`)
      .slice(1)
      .filter((part) => !part.startsWith('--'))
      .flatMap((part) => parts(part.replace(/^\n/, '')));
  }
  return [{ type: type.split(';')[0]!.trim(), content: decodeBody(body, headers.get('content-transfer-encoding')) }];
}

export function readMessage(raw: string): ReadMessage {
  const { headers } = split(raw);
  const all = parts(raw);
  return {
    to: headers.get('to') ?? '',
    subject: decodeWords(headers.get('subject') ?? ''),
    text: all.find((p) => p.type === 'text/plain')?.content ?? '',
    html: all.find((p) => p.type === 'text/html')?.content ?? '',
  };
}

/** The verification link or the 6-digit code in a message. */
export function linkIn(message: ReadMessage): string {
  const link = /https?:\/\/\S+\/verify-email\?token=[\w%-]+/.exec(message.text)?.[0];
  if (!link) throw new Error(`no verification link in: ${message.text}`);
  return link;
}

export function codeIn(message: ReadMessage): string {
  const code = /^\d{6}$/m.exec(message.text)?.[0];
  if (!code) throw new Error(`no code in: ${message.text}`);
  return code;
}
