import { getAddress, InvalidAddressError } from 'viem';
import { addressSchema, checksummed } from './primitives';

/** A seeded run of random 20-byte addresses, each in lower, upper or viem's checksummed case. */
function addresses(count: number, seed = 7): string[] {
  let state = seed;
  const next = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31);
  return Array.from({ length: count }, () => {
    const hex = Array.from({ length: 40 }, () => (next() % 16).toString(16)).join('');
    const form = next() % 3;
    return form === 0 ? `0x${hex}` : form === 1 ? `0x${hex.toUpperCase()}` : getAddress(`0x${hex}`);
  });
}

describe('checksummed', () => {
  it("is viem's getAddress, for every case of the same address, asked once or many times", () => {
    const list = addresses(3_000);
    for (let round = 0; round < 3; round++) for (const a of list) expect(checksummed(a)).toBe(getAddress(a));
  });

  it('stays right past the number of addresses it remembers', () => {
    const list = addresses(40_000, 11);
    for (const a of list) expect(checksummed(a)).toBe(getAddress(a));
    for (const a of list.slice(0, 500)) expect(checksummed(a)).toBe(getAddress(a));
  });

  it('refuses what is not an address, as getAddress does, also after a valid form of it was remembered', () => {
    const valid = '0x1111111111111111111111111111111111111111';
    checksummed(valid);
    for (const bad of ['0x111', `${valid}11`, valid.slice(2), '0xzz11111111111111111111111111111111111111', '']) {
      expect(() => checksummed(bad)).toThrow(InvalidAddressError);
    }
  });
});

describe('addressSchema', () => {
  it('checksums a valid address and refuses an invalid one with its message', () => {
    const [a] = addresses(1, 3);
    expect(addressSchema.parse(a.toLowerCase())).toBe(getAddress(a));
    expect(addressSchema.parse(a.toLowerCase())).toBe(getAddress(a));
    const bad = addressSchema.safeParse('0x1234');
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0].message).toBe('must be a 0x-prefixed 20-byte hex address');
  });
});
