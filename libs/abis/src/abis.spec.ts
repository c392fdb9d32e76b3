import { type Abi, type AbiFunction, encodeFunctionData, erc20Abi, isHex, multicall3Abi, parseAbi, toFunctionSelector } from 'viem';
import { formatAbiItem } from 'viem/utils';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  algebraFactoryAbi,
  algebraFactoryBytecode,
  algebraPoolAbi,
  algebraPoolDeployerAbi,
  algebraPoolDeployerBytecode,
  quoterV2Abi,
  quoterV2Bytecode,
  uniswapV2CoreFactoryAbi,
  uniswapV2CoreFactoryBytecode,
  uniswapV2CorePairAbi,
  uniswapV2CorePairBytecode,
  uniswapV3FactoryAbi,
  uniswapV3FactoryBytecode,
  uniswapV3PoolAbi,
  multicall3Abi as ourMulticall3Abi,
  multicall3Bytecode,
  permit2Abi,
  permit2Bytecode,
  permit2RuntimeBytecode,
  routerV2Permit2Abi,
  routerV2Permit2Bytecode,
  stablePoolAbi,
  stablePoolBytecode,
  stablePoolFactoryAbi,
  stablePoolFactoryBytecode,
  testERC20Abi,
  testERC20Bytecode,
  uniswapV2FactoryAbi,
  uniswapV2FactoryBytecode,
  uniswapV2PairAbi,
  uniswapV2PairBytecode,
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
  {
    // The Uniswap V2 factory interface, plus the per-deployment fee and the pool check routers use.
    name: 'UniswapV2Factory',
    abi: uniswapV2FactoryAbi as Abi,
    bytecode: uniswapV2FactoryBytecode,
    expected: parseAbi([
      'function feeTo() view returns (address)',
      'function feeToSetter() view returns (address)',
      'function getPair(address tokenA, address tokenB) view returns (address pair)',
      'function allPairs(uint256) view returns (address pair)',
      'function allPairsLength() view returns (uint256)',
      'function createPair(address tokenA, address tokenB) returns (address pair)',
      'function setFeeTo(address)',
      'function setFeeToSetter(address)',
      'event PairCreated(address indexed token0, address indexed token1, address pair, uint256)',
      'function swapFeeBps() view returns (uint256)',
      'function isPair(address pair) view returns (bool)',
      'function INIT_CODE_PAIR_HASH() view returns (bytes32)',
    ]) as Abi,
  },
  {
    // The Uniswap V2 pair interface without permit, plus the fee.
    name: 'UniswapV2Pair',
    abi: uniswapV2PairAbi as Abi,
    bytecode: uniswapV2PairBytecode,
    expected: [
      ...erc20Functions,
      ...parseAbi([
        'function MINIMUM_LIQUIDITY() view returns (uint256)',
        'function factory() view returns (address)',
        'function token0() view returns (address)',
        'function token1() view returns (address)',
        'function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)',
        'function price0CumulativeLast() view returns (uint256)',
        'function price1CumulativeLast() view returns (uint256)',
        'function kLast() view returns (uint256)',
        'function mint(address to) returns (uint256 liquidity)',
        'function burn(address to) returns (uint256 amount0, uint256 amount1)',
        'function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes data)',
        'function skim(address to)',
        'function sync()',
        'function initialize(address, address)',
        'event Mint(address indexed sender, uint256 amount0, uint256 amount1)',
        'event Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to)',
        'event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)',
        'event Sync(uint112 reserve0, uint112 reserve1)',
        'function swapFeeBps() view returns (uint256)',
        'error K()',
      ]),
    ] as Abi,
  },
  {
    // Solidly names and their Velodrome V2 aliases, with the `stable` argument.
    name: 'StablePoolFactory',
    abi: stablePoolFactoryAbi as Abi,
    bytecode: stablePoolFactoryBytecode,
    expected: parseAbi([
      'function createPair(address tokenA, address tokenB, bool stable) returns (address)',
      'function createPool(address tokenA, address tokenB, bool stable) returns (address)',
      'function getPair(address tokenA, address tokenB, bool stable) view returns (address)',
      'function getPool(address tokenA, address tokenB, bool stable) view returns (address)',
      'function isPair(address pool) view returns (bool)',
      'function isPool(address pool) view returns (bool)',
      'function allPairs(uint256) view returns (address)',
      'function allPools(uint256) view returns (address)',
      'function allPairsLength() view returns (uint256)',
      'function allPoolsLength() view returns (uint256)',
      'function getFee(address pool, bool stable) view returns (uint256)',
      'event PoolCreated(address indexed token0, address indexed token1, bool indexed stable, address pool, uint256)',
      'function swapFeeBps() view returns (uint256)',
      'error VolatileNotSupported()',
    ]) as Abi,
  },
  {
    // The Solidly/Velodrome V2 pool interface a stable adapter reads and calls.
    name: 'StablePool',
    abi: stablePoolAbi as Abi,
    bytecode: stablePoolBytecode,
    expected: [
      ...erc20Functions,
      ...parseAbi([
        'function token0() view returns (address)',
        'function token1() view returns (address)',
        'function tokens() view returns (address, address)',
        'function stable() view returns (bool)',
        'function factory() view returns (address)',
        'function metadata() view returns (uint256 dec0, uint256 dec1, uint256 r0, uint256 r1, bool st, address t0, address t1)',
        'function getReserves() view returns (uint256 reserve0, uint256 reserve1, uint256 blockTimestampLast)',
        'function reserve0() view returns (uint256)',
        'function reserve1() view returns (uint256)',
        'function blockTimestampLast() view returns (uint256)',
        'function getAmountOut(uint256 amountIn, address tokenIn) view returns (uint256)',
        'function mint(address to) returns (uint256 liquidity)',
        'function burn(address to) returns (uint256 amount0, uint256 amount1)',
        'function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes data)',
        'function skim(address to)',
        'function sync()',
        'event Fees(address indexed sender, uint256 amount0, uint256 amount1)',
        'event Mint(address indexed sender, uint256 amount0, uint256 amount1)',
        'event Burn(address indexed sender, address indexed to, uint256 amount0, uint256 amount1)',
        'event Swap(address indexed sender, address indexed to, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out)',
        'event Sync(uint256 reserve0, uint256 reserve1)',
        'function swapFeeBps() view returns (uint256)',
        'error K()',
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

  it('keep the well-known selectors of the V2 pair and the stable pool', () => {
    const selector = (abi: Abi, functionName: string, args: readonly unknown[]) =>
      encodeFunctionData({ abi, functionName, args } as never).slice(0, 10);
    const to = '0x0000000000000000000000000000000000000001';
    expect(selector(uniswapV2PairAbi as Abi, 'swap', [1n, 0n, to, '0x'])).toBe('0x022c0d9f');
    expect(selector(uniswapV2PairAbi as Abi, 'getReserves', [])).toBe('0x0902f1ac');
    expect(selector(stablePoolAbi as Abi, 'swap', [1n, 0n, to, '0x'])).toBe('0x022c0d9f');
    expect(selector(stablePoolAbi as Abi, 'getAmountOut', [1n, to])).toBe('0xf140a35a');
    expect(selector(stablePoolAbi as Abi, 'metadata', [])).toBe('0x392f37e9');
  });

  it('give the factories their fee constructors and the pools none (created by CREATE2)', () => {
    const inputs = (abi: Abi) => abi.find((item) => item.type === 'constructor')?.inputs.map((input) => input.type) ?? [];
    expect(inputs(uniswapV2FactoryAbi as Abi)).toEqual(['address', 'uint256']);
    expect(inputs(stablePoolFactoryAbi as Abi)).toEqual(['uint256']);
    expect(inputs(uniswapV2PairAbi as Abi)).toEqual([]);
    expect(inputs(stablePoolAbi as Abi)).toEqual([]);
  });

  it('give TestERC20 a (name, symbol, decimals) constructor', () => {
    const constructor = testERC20Abi.find((item) => item.type === 'constructor');
    expect(constructor?.inputs.map((input) => input.type)).toEqual(['string', 'string', 'uint8']);
  });

  it("publish the protocols' own bytecode and ABIs from their npm packages, byte for byte", () => {
    const artifact = (path: string) => {
      const json = JSON.parse(readFileSync(join(__dirname, '../../../node_modules', path), 'utf8')) as { abi: Abi; bytecode: string };
      return { abi: json.abi, bytecode: (json.bytecode.startsWith('0x') ? json.bytecode : `0x${json.bytecode}`).toLowerCase() };
    };
    const published: [string, Abi, string | undefined][] = [
      ['@uniswap/v2-core/build/UniswapV2Factory.json', uniswapV2CoreFactoryAbi as Abi, uniswapV2CoreFactoryBytecode],
      ['@uniswap/v2-core/build/UniswapV2Pair.json', uniswapV2CorePairAbi as Abi, uniswapV2CorePairBytecode],
      ['@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json', uniswapV3FactoryAbi as Abi, uniswapV3FactoryBytecode],
      ['@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json', uniswapV3PoolAbi as Abi, undefined],
      ['@uniswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json', quoterV2Abi as Abi, quoterV2Bytecode],
      ['@cryptoalgebra/integral-core/artifacts/contracts/AlgebraFactory.sol/AlgebraFactory.json', algebraFactoryAbi as Abi, algebraFactoryBytecode],
      ['@cryptoalgebra/integral-core/artifacts/contracts/AlgebraPoolDeployer.sol/AlgebraPoolDeployer.json', algebraPoolDeployerAbi as Abi, algebraPoolDeployerBytecode],
      ['@cryptoalgebra/integral-core/artifacts/contracts/AlgebraPool.sol/AlgebraPool.json', algebraPoolAbi as Abi, undefined],
    ];
    for (const [path, abi, bytecode] of published) {
      const original = artifact(path);
      if (bytecode !== undefined) expect({ path, bytecode }).toEqual({ path, bytecode: original.bytecode });
      expect(new Set(abi.map((item) => shape(item)))).toEqual(new Set(original.abi.map((item) => shape(item))));
    }
    // The pools are created by their factories (the V3 factory and the Algebra pool deployer embed their code).
    expect(uniswapV3FactoryBytecode.length).toBeGreaterThan(40_000);
  });
});

describe("Permit2, compiled from @uniswap/v4-periphery's copy of its source", () => {
  const permit2Dir = join(__dirname, '../../../node_modules/@uniswap/v4-periphery/lib/permit2');
  const peripheryOut = join(__dirname, '../../../node_modules/@uniswap/v4-periphery/foundry-out');
  /** The runtime code deployed at 0x000000000022D473030F116dDEE9F6B43aC78BA3, as DeployPermit2 etches it there. */
  const canonical = (() => {
    const text = readFileSync(join(permit2Dir, 'test/utils/DeployPermit2.sol'), 'utf8');
    const hex = /hex"([0-9a-fA-F]+)"/.exec(text)?.[1];
    if (hex === undefined) throw new Error('no hex literal in DeployPermit2.sol');
    return `0x${hex.toLowerCase()}`;
  })();
  const functionSelectors = (abi: Abi) =>
    abi.filter((item): item is AbiFunction => item.type === 'function').map((fn) => toFunctionSelector(fn));
  /** Whether the code pushes the selector (PUSH4 <selector>), as a dispatcher compares it. */
  const pushes = (code: string, selector: string) => code.includes(`63${selector.slice(2)}`);

  it('has deployment and runtime code, and no constructor arguments', () => {
    expect(isHex(permit2Bytecode, { strict: true })).toBe(true);
    expect(isHex(permit2RuntimeBytecode, { strict: true })).toBe(true);
    expect(permit2Bytecode.length).toBeGreaterThan(permit2RuntimeBytecode.length);
    expect(permit2Bytecode.endsWith(permit2RuntimeBytecode.slice(2))).toBe(true);
    expect((permit2Abi as Abi).find((item) => item.type === 'constructor')).toBeUndefined();
  });

  it("implements the signature-transfer and allowance-transfer interfaces v4-periphery's build has", () => {
    const read = (path: string) => (JSON.parse(readFileSync(join(peripheryOut, path), 'utf8')) as { abi: Abi }).abi;
    const expected = [...read('ISignatureTransfer.sol/ISignatureTransfer.json'), ...read('IAllowanceTransfer.sol/IAllowanceTransfer.default.json')];
    expectToImplement(permit2Abi as Abi, expected);
    // The two RouterV2Permit2 calls.
    expect(functionSelectors(permit2Abi as Abi)).toEqual(
      expect.arrayContaining([
        toFunctionSelector('function DOMAIN_SEPARATOR()'),
        toFunctionSelector(
          'function permitWitnessTransferFrom(((address,uint256),uint256,uint256),(address,uint256),address,bytes32,string,bytes)',
        ),
      ]),
    );
  });

  it('is the length of the code deployed at the canonical address and dispatches the same functions, though not byte for byte the same', () => {
    // The package's source is a later commit of Permit2 than the one deployed in 2022 (and the canonical code has
    // mainnet's chain id and domain separator in its two immutables, ours zeros): same length, 1,409 of its
    // 9,152 bytes differ. Figures for v4-periphery 1.0.3 and solc 0.8.17; a bump of either may move them.
    expect(permit2RuntimeBytecode.length).toBe(canonical.length);
    expect((canonical.length - 2) / 2).toBe(9152);
    let differing = 0;
    for (let i = 2; i < canonical.length; i += 2) {
      if (permit2RuntimeBytecode.slice(i, i + 2) !== canonical.slice(i, i + 2)) differing += 1;
    }
    expect(differing).toBe(1409);
    const selectors = functionSelectors(permit2Abi as Abi);
    expect(selectors.length).toBeGreaterThan(10);
    for (const selector of selectors) {
      expect({ selector, ours: pushes(permit2RuntimeBytecode, selector) }).toEqual({ selector, ours: true });
      expect({ selector, canonical: pushes(canonical, selector) }).toEqual({ selector, canonical: true });
    }
  });
});

describe('RouterV2Permit2', () => {
  it('takes (router, permit2) and answers both', () => {
    expect(isHex(routerV2Permit2Bytecode, { strict: true })).toBe(true);
    const constructor = (routerV2Permit2Abi as Abi).find((item) => item.type === 'constructor');
    expect(constructor?.inputs.map((input) => [input.name, input.type])).toEqual([
      ['router_', 'address'],
      ['permit2_', 'address'],
    ]);
    expectToImplement(
      routerV2Permit2Abi as Abi,
      parseAbi(['function router() view returns (address)', 'function permit2() view returns (address)']) as Abi,
    );
  });
});
