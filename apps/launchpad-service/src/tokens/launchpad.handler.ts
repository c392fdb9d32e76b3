import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { LaunchpadRepository, type DbClient, type LaunchpadGraduationRecord } from '@dex/db';
import {
  curveTradeAmounts,
  getLaunchedTokenContract,
  launchpadEstimateContract,
  launchpadTradesContract,
  listLaunchedTokensContract,
  type LaunchedToken,
  type ParsedRequestOf,
} from '@dex/messages';
import { DB_CLIENT } from '@dex/chain-service';
import { BusError } from '@dex/service';
import { getAddress } from 'viem';
import type { Address } from 'viem';
import { LaunchpadReader, type ChainLaunchedToken } from './launchpad-reader';

@Controller()
export class LaunchpadHandler {
  private readonly indexed: LaunchpadRepository;

  constructor(
    @Inject(LaunchpadReader) private readonly reader: LaunchpadReader,
    @Inject(DB_CLIENT) db: DbClient,
  ) {
    this.indexed = new LaunchpadRepository(db);
  }

  /** `launchpad.trades`: the token's recent curve trades as the indexer recorded them, newest first. */
  @MessagePattern(launchpadTradesContract.subject)
  async recentTrades(@Payload() r: ParsedRequestOf<typeof launchpadTradesContract>) {
    this.reader.chain(r.chainId);
    const trades = await this.indexed.trades(r.chainId, r.token, r.limit);
    return {
      chainId: r.chainId,
      token: r.token,
      trades: trades.map((t) => ({
        txHash: t.txHash,
        blockNumber: t.blockNumber.toString(),
        timestamp: Number(t.timestamp),
        trader: getAddress(t.trader),
        side: t.side,
        ...curveTradeAmounts(t),
      })),
    };
  }

  @MessagePattern(listLaunchedTokensContract.subject)
  async list(@Payload() r: ParsedRequestOf<typeof listLaunchedTokensContract>) {
    const page = await this.reader.list(r.chainId, r.offset, r.limit);
    return { ...page, tokens: await this.withGraduations(r.chainId, page.tokens) };
  }

  @MessagePattern(getLaunchedTokenContract.subject)
  async token(@Payload() r: ParsedRequestOf<typeof getLaunchedTokenContract>) {
    const [token] = await this.withGraduations(r.chainId, [await this.reader.token(r.chainId, r.token as Address)]);
    return token;
  }

  /**
   * Adds the graduation block and time the indexer recorded. The chain stays the source of truth for the
   * live state: a token the chain does not report as graduated has none, whatever the indexer holds (it may
   * be about to undo a reorg); one the indexer has not reached yet has none either.
   */
  private async withGraduations(chainId: number, tokens: readonly ChainLaunchedToken[]): Promise<LaunchedToken[]> {
    const graduated = tokens.filter((t) => t.graduated).map((t) => t.address);
    let recorded = new Map<string, LaunchpadGraduationRecord>();
    if (graduated.length > 0) {
      try {
        recorded = await this.indexed.graduations(chainId, graduated);
      } catch {
        throw new BusError(500, 'Failed to read the launchpad', 'the indexed graduations could not be read');
      }
    }
    return tokens.map((t) => {
      const g = t.graduated ? recorded.get(t.address.toLowerCase()) : undefined;
      return { ...t, graduationBlock: g ? g.blockNumber.toString() : null, graduationTimestamp: g ? Number(g.timestamp) : null };
    });
  }

  @MessagePattern(launchpadEstimateContract.subject)
  estimate(@Payload() r: ParsedRequestOf<typeof launchpadEstimateContract>) {
    return this.reader.estimate(r.chainId, r.token as Address, r.side, BigInt(r.amount));
  }
}
