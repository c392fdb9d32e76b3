// EIP-5202 blueprints, as Vyper's `create_from_blueprint` deploys from them (Curve's NG factories keep their pool
// implementations so): a contract whose code is the preamble 0xFE71 00 and the initcode, never callable itself.
import { concat, numberToHex, size, type Hex } from 'viem';

/** The creation code of a blueprint of `initcode`: a transaction with it as data deploys the blueprint. */
export function blueprintCreationCode(initcode: Hex): Hex {
  const code = concat(['0xfe7100', initcode]);
  // PUSH2 len, RETURNDATASIZE, DUP2, PUSH1 10, RETURNDATASIZE, CODECOPY, RETURN: returns the code after these 10 bytes.
  return concat(['0x61', numberToHex(size(code), { size: 2 }), '0x3d81600a3d39f3', code]);
}
