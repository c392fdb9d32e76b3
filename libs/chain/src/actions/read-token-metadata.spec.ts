import { stringToHex } from 'viem';
import { bytes32Text } from './read-token-metadata';

describe('bytes32Text', () => {
  it('reads a zero-padded bytes32 name or symbol as text', () => {
    expect(bytes32Text(stringToHex('MKR', { size: 32 }))).toBe('MKR');
    expect(bytes32Text(stringToHex('Maker', { size: 32 }))).toBe('Maker');
    expect(bytes32Text(`0x${'00'.repeat(32)}`)).toBe('');
  });

  it('refuses a word that is not UTF-8', () => {
    expect(bytes32Text(`0xff${'00'.repeat(31)}`)).toBeUndefined();
  });
});
