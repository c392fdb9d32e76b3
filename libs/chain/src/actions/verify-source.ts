// Whether a configured liquidity source is what its config says, before it is used: code at every address it
// names, and a call that only a contract of its kind answers the way that kind does (a V2 factory's first pair
// names the factory back and keeps kLast; a V3 factory spaces its 0.05% tier at 10 ticks; an Algebra factory has a pool deployer
// with code; a V4 PoolManager answers its protocol fee controller and extsload; our AMM router has a referral registry,
// our launchpad a graduation DEX; a Curve NG factory lists its pools and its pool blueprint, or its maths and views
// contracts, and tells its first pool's coins). A V4 source's listed hooks (those routed although they may change a swap) must have
// code, and RouterV2, where the caller names it, must allow each for the source (`isHookAllowed`): RouterV2 refuses a
// swap through a hook it does not allow, so a source with such a hook fails its check, the reason naming the hooks and
// the owner's call that fixes it (`setHookAllowed`, which the deploy tool sends).
import { algebraFactoryAbi, ammRouterAbi, launchpadAbi, poolManagerAbi, routerV2Abi, stablePoolAbi, stablePoolFactoryAbi, stateViewAbi, uniswapV2CoreFactoryAbi, uniswapV2CorePairAbi, uniswapV3FactoryAbi } from '@dex/abis';
import { getAddress, type Address } from 'viem';
import type { ChainPublicClient } from '../clients';
import { shortMessage } from '../errors';

/** What a Curve NG factory answers (StableswapNG's and TwocryptoNG's alike, where named so). */
const CURVE_FACTORY_ABI = [
  { type: 'function', name: 'pool_count', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint256' }] },
  { type: 'function', name: 'pool_list', stateMutability: 'view', inputs: [{ type: 'uint256' }], outputs: [{ type: 'address' }] },
  { type: 'function', name: 'pool_implementations', stateMutability: 'view', inputs: [{ type: 'uint256' }], outputs: [{ type: 'address' }] },
  { type: 'function', name: 'get_n_coins', stateMutability: 'view', inputs: [{ type: 'address' }], outputs: [{ type: 'uint256' }] },
  { type: 'function', name: 'math_implementation', stateMutability: 'view', inputs: [], outputs: [{ type: 'address' }] },
  { type: 'function', name: 'views_implementation', stateMutability: 'view', inputs: [], outputs: [{ type: 'address' }] },
  { type: 'function', name: 'get_coins', stateMutability: 'view', inputs: [{ type: 'address' }], outputs: [{ type: 'address[2]' }] },
] as const;

export interface VerifySourceParameters {
  readonly name: string;
  readonly kind: string;
  /** RouterV2's slot of the source: where its hooks must be allowed. */
  readonly routerIndex?: number;
  readonly addresses: Readonly<Record<string, string>>;
  /** Uniswap V4: the hooks the source routes although they may change a swap (`SourceConfig.hooks`). */
  readonly hooks?: readonly { readonly address: string; readonly name: string }[];
}

export interface VerifySourceOptions {
  /** The chain's RouterV2: a V4 source's listed hooks must be allowed by it (not checked without it). */
  readonly routerV2?: string;
}

/** `ok`, or why the source is not what its config says. Throws only when the node cannot answer. */
export type VerifySourceReturnType = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** A read that the contract refused, as opposed to a node that did not answer. */
class Refused extends Error {}

/** Checks the source at the chain's newest block (see the module's comment). */
export async function verifySource(client: ChainPublicClient, source: VerifySourceParameters, options: VerifySourceOptions = {}): Promise<VerifySourceReturnType> {
  const has = async (role: string, address: string): Promise<void> => {
    const code = await client.getCode({ address: getAddress(address) });
    if (!code || code === '0x') throw new Refused(`no contract at its ${role} ${getAddress(address)}`);
  };
  const read = async <T>(what: string, call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (err) {
      // A revert or an answer that does not decode is the contract's; a transport failure is the node's.
      if (/revert|decode|returned no data|zero data/i.test(shortMessage(err))) throw new Refused(`${what} is not answered: ${shortMessage(err)}`);
      throw err;
    }
  };
  const address = (role: string): Address => {
    const value = source.addresses[role];
    if (!value) throw new Refused(`no ${role} address`);
    return getAddress(value);
  };
  /** Each listed hook has code, and RouterV2 (when named) allows every one for the source: else why not, all named. */
  const checkHooks = async (): Promise<void> => {
    const hooks = source.hooks ?? [];
    for (const hook of hooks) await has(`hook ${hook.name}`, hook.address);
    if (!options.routerV2 || source.routerIndex === undefined || hooks.length === 0) return;
    const router = getAddress(options.routerV2);
    const index = source.routerIndex;
    const refused: { name: string; address: Address }[] = [];
    for (const hook of hooks) {
      const address = getAddress(hook.address);
      const allowed = await read(`RouterV2's isHookAllowed(${index}, ${address})`, () => client.readContract({ address: router, abi: routerV2Abi, functionName: 'isHookAllowed', args: [index, address] }));
      if (!allowed) refused.push({ name: hook.name, address });
    }
    if (refused.length > 0) {
      throw new Refused(
        `RouterV2 ${router} does not allow its hook${refused.length > 1 ? 's' : ''} ${refused.map((h) => `${h.name} ${h.address}`).join(', ')} for routerIndex ${index} ` +
          `and refuses swaps through ${refused.length > 1 ? 'them' : 'it'}: the router's owner must call ${refused.map((h) => `setHookAllowed(${index}, ${h.address}, true)`).join(' and ')} (npm run deploy sends ${refused.length > 1 ? 'them' : 'it'})`,
      );
    }
  };
  try {
    for (const [role, value] of Object.entries(source.addresses)) await has(role, value);
    switch (source.kind) {
      case 'uniswap-v2': {
        const factory = address('factory');
        const count = await read('allPairsLength()', () => client.readContract({ address: factory, abi: uniswapV2CoreFactoryAbi, functionName: 'allPairsLength' }));
        if (count > 0n) {
          const pair = await read('allPairs(0)', () => client.readContract({ address: factory, abi: uniswapV2CoreFactoryAbi, functionName: 'allPairs', args: [0n] }));
          const named = await read(`the first pair's factory()`, () => client.readContract({ address: pair, abi: uniswapV2CorePairAbi, functionName: 'factory' }));
          if (getAddress(named) !== factory) throw new Refused(`its first pair ${pair} names another factory, ${named}`);
          // A constant-product pair keeps k for the protocol fee; Solidly-style pools do not.
          await read(`the first pair's kLast()`, () => client.readContract({ address: pair, abi: uniswapV2CorePairAbi, functionName: 'kLast' }));
        }
        break;
      }
      case 'stable': {
        const factory = address('factory');
        const count = await read('allPoolsLength()', () => client.readContract({ address: factory, abi: stablePoolFactoryAbi, functionName: 'allPoolsLength' }));
        if (count > 0n) {
          const pool = await read('allPools(0)', () => client.readContract({ address: factory, abi: stablePoolFactoryAbi, functionName: 'allPools', args: [0n] }));
          const named = await read(`the first pool's factory()`, () => client.readContract({ address: pool, abi: stablePoolAbi, functionName: 'factory' }));
          if (getAddress(named) !== factory) throw new Refused(`its first pool ${pool} names another factory, ${named}`);
        }
        break;
      }
      case 'uniswap-v3': {
        const spacing = await read('feeAmountTickSpacing(500)', () => client.readContract({ address: address('factory'), abi: uniswapV3FactoryAbi, functionName: 'feeAmountTickSpacing', args: [500] }));
        if (spacing !== 10) throw new Refused(`feeAmountTickSpacing(500) is ${spacing}, not a Uniswap V3 factory's 10`);
        break;
      }
      case 'algebra': {
        const deployer = await read('poolDeployer()', () => client.readContract({ address: address('factory'), abi: algebraFactoryAbi, functionName: 'poolDeployer' }));
        await has('pool deployer', deployer);
        break;
      }
      case 'uniswap-v4': {
        // A v4-core PoolManager answers its protocol fee controller and its storage through extsload; a StateView,
        // when the source names one, must read that manager.
        const manager = address('poolManager');
        await read('protocolFeeController()', () => client.readContract({ address: manager, abi: poolManagerAbi, functionName: 'protocolFeeController' }));
        await read('extsload(0)', () => client.readContract({ address: manager, abi: poolManagerAbi, functionName: 'extsload', args: [`0x${'0'.repeat(64)}`] }));
        if (source.addresses.stateView) {
          const named = await read(`the StateView's poolManager()`, () => client.readContract({ address: address('stateView'), abi: stateViewAbi, functionName: 'poolManager' }));
          if (getAddress(named) !== manager) throw new Refused(`its StateView reads another PoolManager, ${named}`);
        }
        await checkHooks();
        break;
      }
      case 'core': {
        const registry = await read('refCodeRegistry()', () => client.readContract({ address: address('router'), abi: ammRouterAbi, functionName: 'refCodeRegistry' }));
        await has('referral registry', registry);
        break;
      }
      case 'launchpad': {
        const count = await read('dexCount()', () => client.readContract({ address: address('launchpad'), abi: launchpadAbi, functionName: 'dexCount' }));
        if (count === 0n) throw new Refused('the launchpad has no graduation DEX');
        break;
      }
      case 'curve-stableswap-ng': {
        const factory = address('factory');
        await has('pool blueprint', await read('pool_implementations(0)', () => client.readContract({ address: factory, abi: CURVE_FACTORY_ABI, functionName: 'pool_implementations', args: [0n] })));
        const count = await read('pool_count()', () => client.readContract({ address: factory, abi: CURVE_FACTORY_ABI, functionName: 'pool_count' }));
        if (count > 0n) {
          const pool = await read('pool_list(0)', () => client.readContract({ address: factory, abi: CURVE_FACTORY_ABI, functionName: 'pool_list', args: [0n] }));
          const coins = await read(`get_n_coins(${pool})`, () => client.readContract({ address: factory, abi: CURVE_FACTORY_ABI, functionName: 'get_n_coins', args: [pool] }));
          if (coins < 2n || coins > 8n) throw new Refused(`its first pool ${pool} has ${coins} coins, not 2 to 8`);
        }
        break;
      }
      case 'curve-twocrypto-ng': {
        const factory = address('factory');
        await has('maths contract', await read('math_implementation()', () => client.readContract({ address: factory, abi: CURVE_FACTORY_ABI, functionName: 'math_implementation' })));
        await has('views contract', await read('views_implementation()', () => client.readContract({ address: factory, abi: CURVE_FACTORY_ABI, functionName: 'views_implementation' })));
        const count = await read('pool_count()', () => client.readContract({ address: factory, abi: CURVE_FACTORY_ABI, functionName: 'pool_count' }));
        if (count > 0n) {
          const pool = await read('pool_list(0)', () => client.readContract({ address: factory, abi: CURVE_FACTORY_ABI, functionName: 'pool_list', args: [0n] }));
          await read(`get_coins(${pool})`, () => client.readContract({ address: factory, abi: CURVE_FACTORY_ABI, functionName: 'get_coins', args: [pool] }));
        }
        break;
      }
      default:
        throw new Refused(`kind ${source.kind} is not one the service routes`);
    }
    return { ok: true };
  } catch (err) {
    if (err instanceof Refused) return { ok: false, reason: err.message };
    throw err;
  }
}
