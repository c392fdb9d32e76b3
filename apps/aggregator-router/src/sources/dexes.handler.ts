import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { listDexesContract, SUBJECTS, type ParsedRequestOf, type ResponseOf } from '@dex/messages';
import { BusError } from '@dex/service';
import { SourceRegistry } from './source-registry';

@Controller()
export class DexesHandler {
  constructor(@Inject(SourceRegistry) private readonly sources: SourceRegistry) {}

  @MessagePattern(SUBJECTS.aggregatorDexes)
  list(@Payload() request: ParsedRequestOf<typeof listDexesContract>): ResponseOf<typeof listDexesContract> {
    const dexes = this.sources.dexes(request.chainId);
    if (!dexes) {
      throw new BusError(400, `Unsupported chainId: ${request.chainId}`, `supported chains: ${this.sources.chainIds().join(', ')}`);
    }
    return { chainId: request.chainId, dexes };
  }
}
