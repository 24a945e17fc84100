import { MemoryStore } from '../../../src/store/memory/store.js';
import { storeConformance } from '../conformance.js';

storeConformance('memory', async (window, limits) => new MemoryStore(window, limits));
