import { type Abi, type AbiFunction, encodeFunctionData, erc20Abi, isHex, multicall3Abi, parseAbi } from 'viem';
import { formatAbiItem } from 'viem/utils';
import {
  multicall3Abi as ourMulticall3Abi,
  multicall3Bytecode,
  testERC20Abi,
  testERC20Bytecode,
  wrappedNativeAbi,
  wrappedNativeBytecode,
} from './index';

/** `kind name(types)` plus, for functions, the outputs and (optionally) the mutability. */
function shape(item: Abi[number], withMutability = true): string {
  if (item.type !== 'function' && item.type !== 'event' && item.type !== 'error') return item.type;
  const head = `${item.type} ${formatAbiItem(item)}`;
  if (item.type !== 'function') return head;
  const fn = item as AbiFunction;
  const outputs = `-> (${fn.outputs.map((o) => o.type).join(',')})`;
  return withMutability ? `${head} ${fn.stateMutability} ${outputs}` : `${head} ${outputs}`;
}

function expectToImplement(abi: Abi, expected: Abi, withMutability = true): void {
  const ours = new Set(abi.map((item) => shape(item, withMutability)));
  for (const item of expected) expect(ours).toContain(shape(item, withMutability));
}

const erc20Functions = erc20Abi.filter((item) => item.type === 'function');

const contracts = [
  {
    name: 'Multicall3',
    abi: ourMulticall3Abi as Abi,
    bytecode: multicall3Bytecode,
    expected: parseAbi([
      'struct Call { address target; bytes callData; }',
      'struct Call3 { address target; bool allowFailure; bytes callData; }',
      'struct Call3Value { address target; bool allowFailure; uint256 value; bytes callData; }',
      'struct Result { bool success; bytes returnData; }',
      'function aggregate(Call[] calls) payable returns (uint256 blockNumber, bytes[] returnData)',
      'function tryAggregate(bool requireSuccess, Call[] calls) payable returns (Result[] returnData)',
      'function tryBlockAndAggregate(bool requireSuccess, Call[] calls) payable returns (uint256 blockNumber, bytes32 blockHash, Result[] returnData)',
      'function blockAndAggregate(Call[] calls) payable returns (uint256 blockNumber, bytes32 blockHash, Result[] returnData)',
      'function aggregate3(Call3[] calls) payable returns (Result[] returnData)',
      'function aggregate3Value(Call3Value[] calls) payable returns (Result[] returnData)',
      'function getBlockHash(uint256 blockNumber) view returns (bytes32 blockHash)',
      'function getBlockNumber() view returns (uint256 blockNumber)',
      'function getCurrentBlockCoinbase() view returns (address coinbase)',
      'function getCurrentBlockDifficulty() view returns (uint256 difficulty)',
      'function getCurrentBlockPrevrandao() view returns (uint256 prevrandao)',
      'function getCurrentBlockGasLimit() view returns (uint256 gaslimit)',
      'function getCurrentBlockTimestamp() view returns (uint256 timestamp)',
      'function getEthBalance(address addr) view returns (uint256 balance)',
      'function getLastBlockHash() view returns (bytes32 blockHash)',
      'function getBasefee() view returns (uint256 basefee)',
      'function getChainId() view returns (uint256 chainid)',
      'error CallFailed(uint256 index, bytes returnData)',
      'error ValueMismatch(uint256 expected, uint256 received)',
    ]) as Abi,
  },
  {
    name: 'WrappedNative',
    abi: wrappedNativeAbi as Abi,
    bytecode: wrappedNativeBytecode,
    expected: [
      ...erc20Functions,
      ...parseAbi([
        'function deposit() payable',
        'function withdraw(uint256 amount)',
        'event Deposit(address indexed to, uint256 amount)',
        'event Withdrawal(address indexed from, uint256 amount)',
        'event Transfer(address indexed from, address indexed to, uint256 value)',
        'event Approval(address indexed owner, address indexed spender, uint256 value)',
        'error InsufficientBalance(address account, uint256 balance, uint256 needed)',
        'error InsufficientAllowance(address owner, address spender, uint256 allowance, uint256 needed)',
        'error NativeTransferFailed(address to, uint256 amount)',
      ]),
    ] as Abi,
  },
  {
    name: 'TestERC20',
    abi: testERC20Abi as Abi,
    bytecode: testERC20Bytecode,
    expected: [
      ...erc20Functions,
      ...parseAbi([
        'function mint(address to, uint256 amount)',
        'function owner() view returns (address)',
        'function transferOwnership(address newOwner)',
        'error OwnableUnauthorizedAccount(address account)',
      ]),
    ] as Abi,
  },
];

describe.each(contracts)('$name', ({ abi, bytecode, expected }) => {
  it('implements the expected interface', () => {
    expectToImplement(abi, expected);
  });

  it('has no duplicate entries', () => {
    const shapes = abi.map((item) => shape(item));
    expect(new Set(shapes).size).toBe(shapes.length);
  });

  it('has non-empty lower-case hex deployment bytecode', () => {
    expect(isHex(bytecode, { strict: true })).toBe(true);
    expect(bytecode.length).toBeGreaterThan(2);
    expect(bytecode).toBe(bytecode.toLowerCase());
  });
});

describe('typed ABIs', () => {
  it("match viem's own multicall3Abi, which its multicall action calls (viem marks aggregate3 view)", () => {
    expectToImplement(ourMulticall3Abi as Abi, multicall3Abi as Abi, false);
  });

  it('encode Multicall3.aggregate3 calls', () => {
    const data = encodeFunctionData({
      abi: ourMulticall3Abi,
      functionName: 'aggregate3',
      args: [[{ target: '0x0000000000000000000000000000000000000001', allowFailure: true, callData: '0x' }]],
    });
    expect(data.slice(0, 10)).toBe('0x82ad56cb');
  });

  it('encode WrappedNative.withdraw', () => {
    const data = encodeFunctionData({ abi: wrappedNativeAbi, functionName: 'withdraw', args: [1n] });
    expect(data).toBe('0x2e1a7d4d0000000000000000000000000000000000000000000000000000000000000001');
  });

  it('describe the receive and fallback deposits of WrappedNative', () => {
    expect(wrappedNativeAbi.some((item) => item.type === 'receive')).toBe(true);
    expect(wrappedNativeAbi.some((item) => item.type === 'fallback')).toBe(true);
  });

  it('give TestERC20 a (name, symbol, decimals) constructor', () => {
    const constructor = testERC20Abi.find((item) => item.type === 'constructor');
    expect(constructor?.inputs.map((input) => input.type)).toEqual(['string', 'string', 'uint8']);
  });
});
