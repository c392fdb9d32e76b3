import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { LaunchpadRepository, type DbClient } from '@dex/db';
import { getLaunchedTokenContract, launchpadEstimateContract, launchpadTradesContract, listLaunchedTokensContract, type ParsedRequestOf } from '@dex/messages';
import { DB_CLIENT } from '@dex/service';
import { getAddress } from 'viem';
import type { Address } from 'viem';
import { LaunchpadReader } from './launchpad-reader';

@Controller()
export class LaunchpadHandler {
  private readonly trades: LaunchpadRepository;

  constructor(
    @Inject(LaunchpadReader) private readonly reader: LaunchpadReader,
    @Inject(DB_CLIENT) db: DbClient,
  ) {
    this.trades = new LaunchpadRepository(db);
  }

  /** `launchpad.trades`: the token's recent curve trades as the indexer recorded them, newest first. */
  @MessagePattern(launchpadTradesContract.subject)
  async recentTrades(@Payload() r: ParsedRequestOf<typeof launchpadTradesContract>) {
    this.reader.chain(r.chainId);
    const trades = await this.trades.trades(r.chainId, r.token, r.limit);
    return {
      chainId: r.chainId,
      token: r.token,
      trades: trades.map((t) => ({
        txHash: t.txHash,
        blockNumber: t.blockNumber.toString(),
        timestamp: Number(t.timestamp),
        trader: getAddress(t.trader),
        side: t.side,
        nativeAmount: t.nativeAmount.toString(),
        tokenAmount: t.tokenAmount.toString(),
        price: t.price.toString(),
        hypeReserves: t.hypeReserves.toString(),
        tokenReserves: t.tokenReserves.toString(),
      })),
    };
  }

  @MessagePattern(listLaunchedTokensContract.subject)
  list(@Payload() r: ParsedRequestOf<typeof listLaunchedTokensContract>) {
    return this.reader.list(r.chainId, r.offset, r.limit);
  }

  @MessagePattern(getLaunchedTokenContract.subject)
  token(@Payload() r: ParsedRequestOf<typeof getLaunchedTokenContract>) {
    return this.reader.token(r.chainId, r.token as Address);
  }

  @MessagePattern(launchpadEstimateContract.subject)
  estimate(@Payload() r: ParsedRequestOf<typeof launchpadEstimateContract>) {
    return this.reader.estimate(r.chainId, r.token as Address, r.side, BigInt(r.amount));
  }
}
