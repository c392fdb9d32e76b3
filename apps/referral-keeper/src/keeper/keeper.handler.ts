import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { distributeContract, graduateContract, type ParsedRequestOf } from '@dex/messages';
import { GraduationService } from '../graduation/graduation.service';
import { KeeperService } from './keeper.service';

@Controller()
export class KeeperHandler {
  constructor(
    @Inject(KeeperService) private readonly keeper: KeeperService,
    @Inject(GraduationService) private readonly graduations: GraduationService,
  ) {}

  /** `keeper.distribute`: distribute now (all chains, or one); `force` ignores the threshold. */
  @MessagePattern(distributeContract.subject)
  async distribute(@Payload() request: ParsedRequestOf<typeof distributeContract>) {
    return { results: await this.keeper.runAll(request.force ?? false, request.chainId) };
  }

  /** `keeper.graduate`: finish launchpad graduations now (all chains, one, or one token of a chain). */
  @MessagePattern(graduateContract.subject)
  async graduate(@Payload() request: ParsedRequestOf<typeof graduateContract>) {
    return { results: await this.graduations.runAll(request.chainId, request.token) };
  }
}
