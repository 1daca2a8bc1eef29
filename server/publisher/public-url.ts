// Whether a marketplace could fetch a picture from this server: PUBLIC_URL names a host others
// reach (not this machine, not a private network, not a name only a local network resolves).
import { BlockList, isIP } from 'node:net';

const PRIVATE = new BlockList();
for (const [address, prefix] of [
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['100.64.0.0', 10],
  ['0.0.0.0', 8],
] as const) {
  PRIVATE.addSubnet(address, prefix, 'ipv4');
}
for (const [address, prefix] of [
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const) {
  PRIVATE.addSubnet(address, prefix, 'ipv6');
}
const LOCAL_NAMES = /(^|\.)(localhost|local|lan|home|internal|intranet|corp)$/i;

export function isPublicUrl(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  const family = isIP(host);
  if (family) return !PRIVATE.check(host, family === 6 ? 'ipv6' : 'ipv4');
  return host.includes('.') && !LOCAL_NAMES.test(host);
}
