import type { DedupConfig } from './config/dedup.js';
import { resolveDedupConfig } from './config/profiles.js';
import { DedupEngine, type EngineVerdict } from './engine/engine.js';
import { initHashing } from './hash/xxhash.js';
import { parseMessageObject } from './input/message.js';
import { LexiconSet } from './lexicon/lexicon.js';
import { MessageFlow } from './pipeline/flow.js';
import { Signer } from './signatures/signer.js';
import { openStore } from './store/open.js';

export interface CreateDoppelOptions {
  /** `news` (default) or `mail`. */
  profile?: string;
  /** Any part of the config file (docs/configuration.md), merged over the profile. */
  config?: unknown;
  /** `memory` (default) or a redis:// / rediss:// URL (then `namespace`, else the config's). */
  store?: string;
  namespace?: string;
}

/** A ready engine: messages in (the JSON Lines input format as objects), verdicts out. */
export interface Doppel {
  config: DedupConfig;
  engine: DedupEngine;
  signer: Signer;
  /** Signs, indexes and decides a batch; a message doppel cannot judge throws a DoppelError. */
  process(messages: readonly unknown[]): Promise<EngineVerdict[]>;
  /** The verdicts the messages would get, nothing indexed. */
  check(messages: readonly unknown[]): Promise<EngineVerdict[]>;
  close(): Promise<void>;
}

/** What `doppel dedup` and `doppel serve` set up, for a Node service that embeds doppel. */
export async function createDoppel(options: CreateDoppelOptions = {}): Promise<Doppel> {
  const config = resolveDedupConfig(options.profile ?? 'news', options.config ?? {});
  await initHashing();
  const signer = new Signer(config.signatures, LexiconSet.defaults({}));
  const store = await openStore(
    options.store ?? 'memory',
    options.namespace ? { config, namespace: options.namespace } : { config },
  );
  const engine = new DedupEngine(config, store);
  const flow = new MessageFlow(engine, signer);
  const requests = (messages: readonly unknown[]) =>
    Promise.all(
      messages.map(async (json) => {
        const message = parseMessageObject(json);
        return flow.prepare(message, message.ts ?? Date.now());
      }),
    );
  return {
    config,
    engine,
    signer,
    process: async (messages) => flow.process(await requests(messages)),
    check: async (messages) => flow.check(await requests(messages)),
    close: () => store.close(),
  };
}
