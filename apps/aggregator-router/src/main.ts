import 'reflect-metadata';
import { runService } from '@dex/service';
import { aggregatorRouterService } from './service';

runService(aggregatorRouterService);
