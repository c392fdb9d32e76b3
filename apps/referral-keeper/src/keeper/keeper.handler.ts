import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { distributeContract, type ParsedRequestOf } from '@dex/messages';
import { KeeperService } from './keeper.service';

@Controller()
export class KeeperHandler {
  constructor(@Inject(KeeperService) private readonly keeper: KeeperService) {}

  /** `keeper.distribute`: distribute now (all chains, or one); `force` ignores the threshold. */
  @MessagePattern(distributeContract.subject)
  async distribute(@Payload() request: ParsedRequestOf<typeof distributeContract>) {
    return { results: await this.keeper.runAll(request.force ?? false, request.chainId) };
  }
}
