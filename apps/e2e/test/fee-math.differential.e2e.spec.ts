// libs/fee-math is the TypeScript twin of RouterV2's fee and slippage arithmetic: the same inputs give the
// same outputs as the contract, here on a real anvil chain.
import { routerV2Abi } from '@dex/abis';
import { deployContext, devAccounts, startAnvil, type AnvilNode } from '@dex/devnet-kit';
import { deployBase, deployRouter } from '@dex/devnet-kit';
import { FeeMathError, splitOutput } from '@dex/fee-math';
import { BaseError, type Address } from 'viem';

jest.setTimeout(120_000);

describe('fee math: TypeScript twin against RouterV2.previewFees', () => {
  let node: AnvilNode;
  let router: Address;
  let ctx: ReturnType<typeof deployContext>;

  beforeAll(async () => {
    node = await startAnvil({ chainId: 999 });
    ctx = deployContext(999, node.rpcUrl);
    const chain = await deployRouter(ctx, await deployBase(ctx, devAccounts().slice(0, 1)));
    router = chain.routerV2;
  });

  afterAll(async () => {
    await node?.stop();
  });

  // A deterministic generator covering edges: zero, tiny, huge, exactly expected, one above and below.
  function* cases(): Generator<{ gross: bigint; expected: bigint; feeBps: bigint; hasFeeRecipient: boolean }> {
    let seed = 0x5eedn;
    const next = () => (seed = (seed * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n);
    const magnitudes = [0n, 1n, 3n, 10n ** 6n, 10n ** 18n, 10n ** 30n, 2n ** 200n];
    for (let i = 0; i < 600; i++) {
      const scale = magnitudes[Number(next() % BigInt(magnitudes.length))];
      const gross = scale === 0n ? 0n : next() % (scale * 2n + 1n);
      const mode = next() % 5n;
      const expected =
        mode === 0n ? gross : mode === 1n ? gross + 1n : mode === 2n ? (gross > 0n ? gross - 1n : 0n) : mode === 3n ? 0n : next() % (gross * 2n + 2n);
      const feeBps = next() % 3n === 0n ? 0n : next() % 101n;
      const hasFeeRecipient = feeBps > 0n || next() % 2n === 0n;
      yield { gross, expected, feeBps, hasFeeRecipient };
    }
  }

  it('matches the contract on 600 inputs, to the unit', async () => {
    const inputs = [...cases()];
    const results = await ctx.publicClient.multicall({
      allowFailure: false,
      contracts: inputs.map((c) => ({
        address: router,
        abi: routerV2Abi,
        functionName: 'previewFees',
        args: [c.gross, c.expected, c.feeBps, c.hasFeeRecipient],
      }) as const),
    });
    inputs.forEach((c, i) => {
      const [userAmount, integratorFee, protocolFee, recipientSlippage, protocolSlippage] = results[i] as readonly bigint[];
      const ts = splitOutput({ grossAmountOut: c.gross, expectedAmountOut: c.expected, feeBps: c.feeBps, hasFeeRecipient: c.hasFeeRecipient });
      expect({ userAmount, integratorFee, protocolFee, recipientSlippage, protocolSlippage }).toEqual({
        userAmount: ts.userAmount,
        integratorFee: ts.integratorFee,
        protocolFee: ts.protocolFee,
        recipientSlippage: ts.recipientSlippage,
        protocolSlippage: ts.protocolSlippage,
      });
    });
  });

  it('rejects the same bad inputs', async () => {
    const bad = [
      { gross: 1000n, expected: 1000n, feeBps: 101n, hasFeeRecipient: true },
      { gross: 1000n, expected: 1000n, feeBps: 10n, hasFeeRecipient: false },
    ];
    for (const c of bad) {
      expect(() => splitOutput({ grossAmountOut: c.gross, expectedAmountOut: c.expected, feeBps: c.feeBps, hasFeeRecipient: c.hasFeeRecipient })).toThrow(FeeMathError);
      await expect(
        ctx.publicClient.readContract({ address: router, abi: routerV2Abi, functionName: 'previewFees', args: [c.gross, c.expected, c.feeBps, c.hasFeeRecipient] }),
      ).rejects.toBeInstanceOf(BaseError);
    }
  });
});
