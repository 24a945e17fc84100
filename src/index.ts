/**
 * doppel as a library (`import { createDoppel } from 'doppel'`): the engine, the stores, the
 * signatures and message decoding. The CLI, the consumers and the HTTP API are built on these.
 */
export type { DedupConfig, ProfileName } from './config/dedup.js';
export { resolveDedupConfig } from './config/profiles.js';
export {
  type CreateDoppelOptions,
  createDoppel,
  type DeepPartial,
  type Doppel,
  type DoppelConfigInput,
  type DoppelInput,
  type DoppelResult,
  type InvalidResult,
  type StoriesPage,
  type StoriesQuery,
} from './embed.js';
export {
  DedupEngine,
  displayTitle,
  type EngineMessage,
  type EngineOptions,
  type EngineVerdict,
} from './engine/engine.js';
export type {
  ClusterKey,
  ClusterListPage,
  ClusterListQuery,
  ClusterMember,
  ClusterMembersPage,
  ClusterView,
  DedupStore,
  Evidence,
  MessageDetail,
  StoredVerdict,
  StoryEvent,
  VerdictKind,
} from './engine/types.js';
export { DoppelError, ERROR_CODES, type ErrorCode, isDoppelError } from './errors.js';
export { initHashing } from './hash/xxhash.js';
export { type DecodedMessage, decodeMessage } from './input/decode-message.js';
export { type Message, parseMessageLine, parseMessageObject } from './input/message.js';
export { messageSchema } from './input/message-schema.js';
export { LexiconSet } from './lexicon/lexicon.js';
export { engineMessage, MessageFlow } from './pipeline/flow.js';
export { type SignedMessage, signMessage } from './pipeline/sign.js';
export { type Signatures, Signer } from './signatures/signer.js';
export { MemoryStore } from './store/memory/store.js';
export { openStore, type StoreOptions } from './store/open.js';
export { RedisStore, type RedisStoreOptions } from './store/redis/store.js';
export { RedisClusterStore, type RedisClusterStoreOptions } from './store/redis-cluster/store.js';
