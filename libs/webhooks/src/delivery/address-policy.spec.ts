import { addressRefusal, isLoopbackHostname, PRODUCTION_TARGET_POLICY } from './address-policy.js';
import { connectRefusal } from './guarded-connector.js';

const LOCAL_DEVELOPMENT = { allowLoopback: true };

describe('address policy: global unicast only', () => {
  it.each([
    ['127.0.0.1', 'a loopback address'],
    ['127.255.255.254', 'a loopback address'],
    ['::1', 'a loopback address'],
    ['::ffff:127.0.0.1', 'a loopback address'],
    ['::ffff:7f00:1', 'a loopback address'],
    ['10.0.0.1', 'a private address'],
    ['10.255.255.255', 'a private address'],
    ['172.16.0.1', 'a private address'],
    ['172.31.255.255', 'a private address'],
    ['192.168.1.1', 'a private address'],
    ['::ffff:192.168.1.1', 'a private address'],
    ['169.254.169.254', 'a link-local address'],
    ['fe80::1', 'a link-local address'],
    ['fe80::1%eth0', 'a link-local address'],
    ['fc00::1', 'a unique-local (private) address'],
    ['fd12:3456:789a::1', 'a unique-local (private) address'],
    ['0.0.0.0', 'an unspecified address'],
    ['0.1.2.3', 'an unspecified address'],
    ['::', 'an unspecified address'],
    ['224.0.0.1', 'a multicast address'],
    ['239.255.255.250', 'a multicast address'],
    ['ff02::1', 'a multicast address'],
    ['255.255.255.255', 'the broadcast address'],
    ['100.64.0.1', 'a carrier-grade NAT address'],
    ['192.0.2.1', 'a reserved address'],
    ['240.0.0.1', 'a reserved address'],
    ['2001:db8::1', 'a reserved address'],
    ['::7f00:1', 'a reserved address'], // IPv4-compatible (deprecated), outside 2000::/3
  ])('refuses %s (%s)', (address, kind) => {
    expect(addressRefusal(address, PRODUCTION_TARGET_POLICY)).toBe(`${address}, ${kind}`);
  });

  it.each([['64:ff9b::7f00:1'], ['2002:7f00:1::1'], ['2001::1']])('refuses %s, an IPv6 form that embeds an IPv4 address', (address) => {
    expect(addressRefusal(address, PRODUCTION_TARGET_POLICY)).toMatch(/not a global unicast address/);
  });

  it.each([
    ['8.8.8.8'],
    ['200.160.2.3'],
    ['172.32.0.1'],
    ['172.15.255.255'],
    ['192.169.0.1'],
    ['2001:4860:4860::8888'],
    ['::ffff:8.8.8.8'],
  ])('accepts the global unicast address %s', (address) => {
    expect(addressRefusal(address, PRODUCTION_TARGET_POLICY)).toBeUndefined();
  });

  it('refuses what is not an address', () => {
    expect(addressRefusal('example.com', PRODUCTION_TARGET_POLICY)).toBe('example.com, not an IP address');
  });

  it('accepts loopback, and only loopback, under the local-development switch', () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) expect(addressRefusal(address, LOCAL_DEVELOPMENT)).toBeUndefined();
    for (const address of ['10.0.0.1', '169.254.169.254', 'fe80::1', '0.0.0.0'])
      expect(addressRefusal(address, LOCAL_DEVELOPMENT)).toBeDefined();
  });

  it('knows loopback names', () => {
    expect(['localhost', 'LOCALHOST', 'hooks.localhost', '127.0.0.1', '[::1]'].every(isLoopbackHostname)).toBe(true);
    expect(['localhost.example.com', 'example.com', '10.0.0.1'].some(isLoopbackHostname)).toBe(false);
  });

  it('at connect time, accepts http:// to a loopback address only (local development), https:// to any allowed address', () => {
    expect(connectRefusal('127.0.0.1', 'http:', LOCAL_DEVELOPMENT)).toBeUndefined();
    expect(connectRefusal('8.8.8.8', 'http:', LOCAL_DEVELOPMENT)).toBe('http:// is accepted to a loopback address only');
    expect(connectRefusal('8.8.8.8', 'https:', LOCAL_DEVELOPMENT)).toBeUndefined();
    expect(connectRefusal('127.0.0.1', 'https:', PRODUCTION_TARGET_POLICY)).toBe('127.0.0.1, a loopback address');
    expect(connectRefusal(undefined, 'https:', PRODUCTION_TARGET_POLICY)).toBe('the socket has no remote address');
  });
});
