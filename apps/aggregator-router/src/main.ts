import 'reflect-metadata';
import { runService } from '@dex/service';
import { service } from './service';

runService(service);
