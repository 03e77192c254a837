import { segment } from './api-client.js';

describe('segment', () => {
  it('keeps an argument inside its path segment', () => {
    const base = 'http://api.example/';
    const path = (value: string) => new URL(`api/v1/invoices/${segment(value)}/submissions`, base).pathname;
    expect(path('0b1c8f6e-3f43-4a4e-9c59-2f1f0d3c4a10')).toBe('/api/v1/invoices/0b1c8f6e-3f43-4a4e-9c59-2f1f0d3c4a10/submissions');
    expect(path('a/../../me?x=1')).toBe('/api/v1/invoices/a%2F..%2F..%2Fme%3Fx%3D1/submissions');
    expect(path('%2e%2e')).toBe('/api/v1/invoices/%252e%252e/submissions');
    expect(() => segment('..')).toThrow(RangeError);
    expect(() => segment('.')).toThrow(RangeError);
  });
});
