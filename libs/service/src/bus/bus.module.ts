import { Global, Module, type DynamicModule } from '@nestjs/common';
import { NatsBus } from './nats-bus';

/** Makes the service's NatsBus injectable. */
@Global()
@Module({})
export class BusModule {
  static forRoot(bus: NatsBus): DynamicModule {
    return { module: BusModule, providers: [{ provide: NatsBus, useValue: bus }], exports: [NatsBus] };
  }
}
