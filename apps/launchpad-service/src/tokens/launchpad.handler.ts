import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { getLaunchedTokenContract, launchpadEstimateContract, listLaunchedTokensContract, type ParsedRequestOf } from '@dex/messages';
import type { Address } from 'viem';
import { LaunchpadReader } from './launchpad-reader';

@Controller()
export class LaunchpadHandler {
  constructor(@Inject(LaunchpadReader) private readonly reader: LaunchpadReader) {}

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
