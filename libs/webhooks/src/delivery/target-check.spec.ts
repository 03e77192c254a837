// The registration-time check with a stub resolver (no DNS): what each kind of URL answers.
import { type LookupAddress } from 'node:dns';
import { PRODUCTION_TARGET_POLICY } from './address-policy.js';
import { checkWebhookTarget } from './target-check.js';

const records: Record<string, LookupAddress[]> = {
  'hooks.example.com': [
    { address: '93.184.216.34', family: 4 },
    { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
  ],
  'internal.example.com': [{ address: '10.1.2.3', family: 4 }],
  'rebind.example.com': [{ address: '127.0.0.1', family: 4 }],
  'mixed.example.com': [
    { address: '93.184.216.34', family: 4 },
    { address: '169.254.169.254', family: 4 },
  ],
  'metadata.example.com': [{ address: 'fd00:ec2::254', family: 6 }],
  localhost: [
    { address: '127.0.0.1', family: 4 },
    { address: '::1', family: 6 },
  ],
  'public.localhost': [{ address: '93.184.216.34', family: 4 }],
};
const resolver = async (hostname: string) => {
  const found = records[hostname];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return found;
};
const production = (url: unknown) => checkWebhookTarget(url, { policy: PRODUCTION_TARGET_POLICY, resolver });
const localDevelopment = (url: unknown) => checkWebhookTarget(url, { policy: { allowLoopback: true }, resolver });

describe('registration-time target check', () => {
  it('accepts an https URL whose host resolves to public addresses only, normalised', async () => {
    await expect(production('https://Hooks.Example.com:8443/talao?x=1')).resolves.toEqual({
      ok: true,
      url: 'https://hooks.example.com:8443/talao?x=1',
    });
    await expect(production('https://93.184.216.34/hook')).resolves.toEqual({ ok: true, url: 'https://93.184.216.34/hook' });
  });

  it.each([
    ['http://hooks.example.com/', 'url must use https'],
    ['ftp://hooks.example.com/', 'url must use https'],
    ['hooks.example.com/path', 'url must be an absolute https URL'],
    ['', 'url must be an https URL'],
    [42, 'url must be an https URL'],
    [`https://hooks.example.com/${'a'.repeat(2048)}`, 'url must be at most 2048 characters'],
    ['https://user:pw@hooks.example.com/', 'url must not carry a user name or password'],
    ['https://nowhere.example.com/', 'url host nowhere.example.com does not resolve'],
    ['https://127.0.0.1/', 'url must not point to a non-public address: 127.0.0.1, a loopback address'],
    ['https://2130706433/', 'url must not point to a non-public address: 127.0.0.1, a loopback address'],
    ['https://0x7f.1/', 'url must not point to a non-public address: 127.0.0.1, a loopback address'],
    ['https://[::1]/', 'url must not point to a non-public address: ::1, a loopback address'],
    ['https://[::ffff:127.0.0.1]/', 'url must not point to a non-public address: ::ffff:7f00:1, a loopback address'],
    ['https://10.0.0.8/', 'url must not point to a non-public address: 10.0.0.8, a private address'],
    ['https://169.254.169.254/latest/meta-data', 'url must not point to a non-public address: 169.254.169.254, a link-local address'],
    ['https://[fe80::1]/', 'url must not point to a non-public address: fe80::1, a link-local address'],
    ['https://localhost/', 'url must not point to a non-public address: localhost resolves to 127.0.0.1, a loopback address'],
    [
      'https://rebind.example.com/',
      'url must not point to a non-public address: rebind.example.com resolves to 127.0.0.1, a loopback address',
    ],
    [
      'https://internal.example.com/',
      'url must not point to a non-public address: internal.example.com resolves to 10.1.2.3, a private address',
    ],
    [
      'https://mixed.example.com/',
      'url must not point to a non-public address: mixed.example.com resolves to 169.254.169.254, a link-local address',
    ],
    [
      'https://metadata.example.com/',
      'url must not point to a non-public address: metadata.example.com resolves to fd00:ec2::254, a unique-local (private) address',
    ],
  ])('refuses %s in production', async (url, detail) => {
    await expect(production(url)).resolves.toEqual({ ok: false, detail });
  });

  it('accepts http:// and https:// to loopback under the local-development switch, and nothing private', async () => {
    await expect(localDevelopment('http://localhost:4000/hooks')).resolves.toEqual({ ok: true, url: 'http://localhost:4000/hooks' });
    await expect(localDevelopment('http://127.0.0.1:4000/hooks')).resolves.toEqual({ ok: true, url: 'http://127.0.0.1:4000/hooks' });
    await expect(localDevelopment('https://[::1]:4000/')).resolves.toEqual({ ok: true, url: 'https://[::1]:4000/' });
    await expect(localDevelopment('http://hooks.example.com/')).resolves.toEqual({ ok: false, detail: 'url must use https' });
    await expect(localDevelopment('http://public.localhost/')).resolves.toEqual({
      ok: false,
      detail: 'url must use https (http:// is accepted to a loopback address only)',
    });
    await expect(localDevelopment('https://10.0.0.8/')).resolves.toEqual({
      ok: false,
      detail: 'url must not point to a non-public address: 10.0.0.8, a private address',
    });
  });
});
