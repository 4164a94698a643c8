import { describeModelCacheStore } from '../../testing/model-cache-store-conformance';
import { MemoryModelCacheStore } from './memory-model-cache-store';

describeModelCacheStore('in memory', () => new MemoryModelCacheStore());
