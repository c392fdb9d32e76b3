import 'reflect-metadata';
import { runService } from '@dex/service';
import { gatewayService } from './service';

runService(gatewayService);
