/** Private-address rules for webhooks: literal hosts at registration, resolved ones at delivery. */
import { describe, expect, it } from 'vitest';
import { isPrivateAddress, isPrivateLiteralHost } from '../../src/school-api/addresses.js';
import { refusedReason } from '../../src/emulator/webhook-delivery.js';

describe('isPrivateAddress / isPrivateLiteralHost', () => {
  it.each([
    ['127.0.0.1', true], ['10.0.0.8', true], ['172.16.5.4', true], ['172.32.0.1', false], ['192.168.1.1', true],
    ['169.254.169.254', true], ['100.64.0.1', true], ['0.0.0.0', true], ['8.8.8.8', false], ['93.184.216.34', false],
    ['::1', true], ['[::1]', true], ['fd00::1', true], ['fe80::1', true], ['::ffff:127.0.0.1', true], ['2606:4700::1111', false],
  ])('%s private=%s', (ip, want) => {
    expect(isPrivateAddress(ip)).toBe(want);
  });
  it.each([
    ['localhost', true], ['api.localhost', true], ['LOCALHOST.', true], ['hooks.example.com', false], ['10.0.0.1', true],
  ])('literal host %s private=%s', (host, want) => {
    expect(isPrivateLiteralHost(host)).toBe(want);
  });
});

describe('refusedReason at delivery', () => {
  const fakeDns = (answers: Record<string, string[]>) => async (host: string) => answers[host] ?? [];
  it('refuses a name that resolves to a private address, allows a public one, and allows anything when insecure', async () => {
    const dns = fakeDns({ 'sneaky.example.com': ['93.184.216.34', '10.0.0.5'], 'ok.example.com': ['93.184.216.34'] });
    expect(await refusedReason(new URL('https://sneaky.example.com/x'), false, dns)).toBe('refused: sneaky.example.com resolves to the private address 10.0.0.5');
    expect(await refusedReason(new URL('https://ok.example.com/x'), false, dns)).toBeNull();
    expect(await refusedReason(new URL('https://127.0.0.1/x'), false, dns)).toBe('refused: 127.0.0.1 resolves to the private address 127.0.0.1');
    expect(await refusedReason(new URL('https://sneaky.example.com/x'), true, dns)).toBeNull();
  });
});
