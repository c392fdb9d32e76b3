import { indexerStatusContract, type ParsedRequestOf, type ResponseOf } from '@dex/messages';
import { BusError } from '@dex/service';
import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { IndexerService } from './indexer.service';

/** `indexer.status` over the bus: serviceStatus and lastProcessedBlock per chain, for the API. */
@Controller()
export class IndexerStatusHandler {
  constructor(@Inject(IndexerService) private readonly indexer: IndexerService) {}

  @MessagePattern(indexerStatusContract.subject)
  status(@Payload() request: ParsedRequestOf<typeof indexerStatusContract>): ResponseOf<typeof indexerStatusContract> {
    const chains = this.indexer.status(request.chainId);
    if (request.chainId !== undefined && chains.length === 0) {
      throw new BusError(400, `Unsupported chainId: ${request.chainId}`, 'the indexer does not follow this chain');
    }
    return { chains };
  }
}
