import { isNative } from './token-meta';

describe('isNative', () => {
  it('accepts the zero address and the 0xEeee spelling', () => {
    expect(isNative('0x0000000000000000000000000000000000000000')).toBe(true);
    expect(isNative('0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee')).toBe(true);
    expect(isNative('0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0')).toBe(false);
  });
});
