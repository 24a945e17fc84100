import type { DedupConfig, IndexMethod } from '../config/dedup.js';
import { maxFutureSkew } from '../config/skew.js';
import { DoppelError } from '../errors.js';
import { factsRelation } from '../signatures/facts.js';
import type { Signatures } from '../signatures/signer.js';
import { chooseDuplicateOf, joinsOf } from './choose.js';
import { commonSentences, containedWithout } from './common-sentences.js';
import { matchLevel } from './decide.js';
import { displaySnippet, displayUrl, encodeDetail, MAX_SNIPPET_LENGTH } from './detail.js';
import { IndexKeyBuilder } from './index-keys.js';
import { compactRecord } from './record.js';
import { candidateClusters, chooseStory, type StoryCluster, type StoryLink } from './story.js';
import { storyBeyondSharedSentences } from './story-sentences.js';
import {
  type Candidate,
  type Decision,
  type DedupStore,
  type Evidence,
  type IndexRequest,
  MAX_TITLE_LENGTH,
  type SignatureRecord,
  type StoredVerdict,
  type StoryEvent,
  type VerdictKind,
} from './types.js';
import { copyEvidence, newEvidence, roundSimilarity, Verifier } from './verify.js';

/** One message's outcome. */
export interface EngineVerdict {
  id: string;
  verdict: Exclude<VerdictKind, 'invalid'>;
  clusterId: string;
  duplicateOf?: string;
  similarity?: number;
  method?: string;
  /** Evidence against `duplicateOf` (or the best story match). */
  evidence?: Evidence;
  /** True when the id had been decided before: this is its first verdict, unchanged. */
  replay?: boolean;
  /**
   * On a replay: the message's content is not the one first decided under this id (its exact
   * hash differs from the stored record's). The verdict is still the first one; the new content
   * was not judged.
   */
  conflict?: boolean;
  /**
   * The message's time was past the clock plus window.maxFutureSkewMs and was judged (and
   * stored) as that bound instead: a far-future time would otherwise expire the whole window.
   */
  eventTimeClamped?: true;
  /** A mail's text parts not read (more MIME parts than are read): judged on the rest. */
  truncatedParts?: number;
  events: StoryEvent[];
  candidates: number;
  hotBuckets: number;
  /** The story link considered for a message with no duplicate-level match (joined or refused). */
  story?: StoryLink;
  /** Every verified candidate and its evidence (only with `collectEvidence`; for doppel eval and explain). */
  matches?: Array<{ id: string; evidence: Evidence }>;
}

export interface EngineOptions {
  /** Keep the evidence of every candidate in the verdict (costs memory; eval only). */
  collectEvidence?: boolean;
  /** The wall clock event times are bounded by (epoch ms; default Date.now). */
  clock?: () => number;
}

/**
 * What the engine takes of a message: its id, signatures, language and event time (epoch ms),
 * and the title stores keep for display. Nothing of its text: decoding and signing are the
 * flow's stages before (src/pipeline/flow.ts).
 */
export interface EngineMessage {
  id: string;
  signatures: Signatures;
  lang: string;
  ts: number;
  title?: string;
  /** A mail's text parts not read (DecodedMessage.truncatedParts). */
  truncatedParts?: number;
  /** The input's source URL (kept when displayUrl accepts it). */
  url?: unknown;
  /** The opening of the decoded text, as displaySnippet makes it. */
  snippet?: string;
}

/**
 * The record the store keeps of a signed message (engine/record.ts says what is cut and why);
 * `pack`: with the packed form verification reads (compactRecord).
 */
export function signatureRecord(s: Signatures, lang: string, pack = true): SignatureRecord {
  return compactRecord(s, lang, pack);
}

interface Decided {
  decision: Decision;
  best: Scored | null;
  story: StoryLink | null;
  candidates: number;
  hot: number;
  matches?: EngineVerdict['matches'];
}

export { joinsOf } from './choose.js';

export interface Scored {
  candidate: Candidate;
  evidence: Evidence;
  level: ReturnType<typeof matchLevel>;
}

/**
 * The dedup engine: index keys, candidates from the store, verification, verdict, cluster. The
 * same code runs in the CLI (memory store), the consumers and the HTTP API (Redis store).
 */
/**
 * The engine's per-message preparation (index keys and stored record) on its own: what a sign
 * worker (pipeline/sign-pool.ts) runs, without a store.
 */
export interface PreparerOptions {
  /**
   * Give each record its packed form for verification (default true). A sign worker sends the
   * record's bytes, from which the indexing thread makes that form itself: packing there was an
   * array per message thrown away.
   */
  packRecords?: boolean;
}

export class RequestPreparer {
  readonly keys: IndexKeyBuilder;
  private readonly snippetLength: number;
  private readonly packRecords: boolean;

  constructor(config: DedupConfig, options: PreparerOptions = {}) {
    this.packRecords = options.packRecords ?? true;
    this.snippetLength = config.index.snippetLength;
    this.keys = new IndexKeyBuilder(
      config.signatures,
      new Set<IndexMethod>(config.index.methods),
      config.index.topicKeys,
    );
  }

  /**
   * What the engine keeps of a message: its index keys, stored record and display title. A
   * caller that collects a batch makes this as each message is signed and holds only it, not the
   * text, canonical form and full signatures: a batch of those outlived young-generation
   * collections and was copied by every one of them (most of the dedup CLI's GC time).
   */
  indexRequest(message: EngineMessage): IndexRequest {
    const request: IndexRequest = {
      id: message.id,
      ts: message.ts,
      keys: this.keys.keys(message.signatures),
      record: signatureRecord(message.signatures, message.lang, this.packRecords),
    };
    const title = displayTitle(message.title);
    if (title !== undefined) request.title = title;
    if (message.truncatedParts !== undefined) request.truncatedParts = message.truncatedParts;
    const url = displayUrl(message.url);
    if (url !== undefined) request.url = url;
    const snippet =
      this.snippetLength === MAX_SNIPPET_LENGTH
        ? message.snippet
        : displaySnippet(message.snippet, this.snippetLength);
    if (snippet !== undefined) request.snippet = snippet;
    return request;
  }
}

export class DedupEngine {
  private readonly keys: IndexKeyBuilder;
  private readonly preparer: RequestPreparer;
  private readonly verifier = new Verifier();
  private readonly scratchEvidence = newEvidence(false, null, null, false, 0, null);

  constructor(
    readonly config: DedupConfig,
    readonly store: DedupStore,
    private readonly options: EngineOptions = {},
  ) {
    this.preparer = new RequestPreparer(config);
    this.keys = this.preparer.keys;
  }

  /** RequestPreparer.indexRequest: the index keys, stored record and title of a message. */
  indexRequest(message: EngineMessage): IndexRequest {
    return this.preparer.indexRequest(message);
  }

  /** `process` of messages not yet through `indexRequest`. */
  async processMessages(messages: readonly EngineMessage[]): Promise<EngineVerdict[]> {
    return this.process(messages.map((m) => this.indexRequest(m)));
  }

  /**
   * Index and decide one batch: store.index, verification and the decision rule, store.commit.
   * A replay (an id decided before, or repeated in the batch) gets its first verdict and, from
   * the store, the story event its first decision made (replayStoryEvents).
   */
  async process(inputs: readonly IndexRequest[]): Promise<EngineVerdict[]> {
    const { requests, clamped } = this.boundEventTimes(inputs);
    const verdicts = await this.indexAndJudge(requests);
    await this.replayStoryEvents(verdicts);
    if (clamped) for (const i of clamped) (verdicts[i] as EngineVerdict).eventTimeClamped = true;
    markTruncated(inputs, verdicts);
    return verdicts;
  }

  /**
   * The requests with every time past the clock plus window.maxFutureSkewMs clamped to that bound
   * and marked (copies; the others as they are), and the positions clamped (null: none). A
   * clamped time moves no store clock: a far-future time would expire the whole window (and, on
   * a feed older than the wall clock, even the bound would). The stores also never move their
   * clocks past their own wall clock plus the skew.
   */
  private boundEventTimes(inputs: readonly IndexRequest[]): {
    requests: readonly IndexRequest[];
    clamped: number[] | null;
  } {
    const limit = (this.options.clock ?? Date.now)() + maxFutureSkew(this.config.window);
    const clamped: number[] = [];
    inputs.forEach((request, i) => {
      if (request.ts > limit) clamped.push(i);
    });
    if (clamped.length === 0) return { requests: inputs, clamped: null };
    const requests = [...inputs];
    for (const i of clamped) requests[i] = { ...(inputs[i] as IndexRequest), ts: limit, clampedTs: true };
    return { requests, clamped };
  }

  private async indexAndJudge(inputs: readonly IndexRequest[]): Promise<EngineVerdict[]> {
    // A second occurrence of an id in one batch is a replay of the first.
    const firstIndex = new Map<string, number>();
    const requests: IndexRequest[] = [];
    const requestOf: number[] = [];
    inputs.forEach((input, i) => {
      const id = input.id;
      if (firstIndex.has(id)) {
        requestOf.push(-1);
        return;
      }
      firstIndex.set(id, i);
      requestOf.push(requests.length);
      requests.push(input);
    });
    const results = await this.store.index(requests);
    const scoredOf = results.map((result, r) =>
      result.status === 'decided' ? [] : this.score(requests[r] as IndexRequest, result.candidates),
    );
    const stories = await this.storyLinks(
      requests,
      scoredOf,
      results.map((result) => (result.status === 'decided' ? [] : result.candidates)),
    );

    const decisions: Decision[] = [];
    const decisionOf = new Map<string, Decided>();
    results.forEach((result, r) => {
      if (result.status === 'decided') return;
      const request = requests[r] as IndexRequest;
      const story = stories[r] ?? null;
      const { decision, best } = this.judge(request, result.seq, scoredOf[r] as Scored[], story);
      decisions.push(decision);
      const decided: Decided = {
        decision,
        best,
        story,
        candidates: result.candidates.length,
        hot: result.hotBuckets,
      };
      if (this.options.collectEvidence) {
        const verifier = this.verifier.load(request.record);
        decided.matches = result.candidates.map((c) => ({
          id: c.id,
          evidence: verifier.compare(c.record),
        }));
      }
      decisionOf.set(request.id, decided);
    });
    const commits = await this.store.commit(decisions);
    const committed = new Map(commits.map((c) => [c.id, c]));
    // Rare (a race on one id between processes): one read each of the verdict that won.
    const storedOf = new Map<string, StoredVerdict>();
    for (const c of commits) {
      if (!c.decidedBefore) continue;
      const stored = await this.store.verdict(c.id);
      if (stored) storedOf.set(c.id, stored);
    }

    return inputs.map((input, i) => {
      const id = input.id;
      const own = requestOf[i] as number;
      // A repeat inside the batch answers as its first occurrence did, which may itself be a
      // replay of a verdict from an earlier batch: either way the id's first decision.
      const r = own >= 0 ? own : (requestOf[firstIndex.get(id) as number] as number);
      const result = results[r];
      if (result === undefined) throw new DoppelError('INTERNAL', `store gave no index result for ${id}`);
      if (result.status === 'decided')
        return replayVerdict(result.verdict, result.verdict.clusterId, reused(input, result.exact));
      const d = decisionOf.get(id);
      if (d === undefined) throw new DoppelError('INTERNAL', `no decision for ${id}`);
      const c = committed.get(id);
      // Another process decided the id between this one's index and commit: its verdict is the id's.
      const before = c?.decidedBefore ? storedOf.get(id) : undefined;
      // (Its record's hash is not read here: such a race is not told apart as a conflict.)
      if (before) return replayVerdict(before, c?.clusterId ?? before.clusterId, false);
      const replay = own < 0;
      const out = this.toVerdict(
        d.decision,
        d.best,
        c?.clusterId ?? id,
        replay ? [] : (c?.events ?? []),
        d.candidates,
        d.hot,
        replay,
        d.story,
      );
      if (d.matches && !replay) out.matches = d.matches;
      if (replay && reused(input, (requests[r] as IndexRequest).record.exact)) out.conflict = true;
      return out;
    });
  }

  /**
   * The verdict each message would get, without indexing it (the HTTP API's /v1/check): the same
   * keys, candidates and decision rule as process, through the store's read-only query, so
   * nothing is written. `clusterId` is the cluster it would join (its own id when it would start
   * one); there are no story events. An id decided before gets its stored verdict (`replay`).
   */
  async check(requests: readonly IndexRequest[]): Promise<EngineVerdict[]> {
    const results = await this.store.query(requests);
    const scoredOf = results.map((result, r) =>
      result.status === 'decided' ? [] : this.score(requests[r] as IndexRequest, result.candidates),
    );
    const stories = await this.storyLinks(
      requests,
      scoredOf,
      results.map((result) => (result.status === 'decided' ? [] : result.candidates)),
    );
    const verdicts = await Promise.all(
      results.map(async (result, i): Promise<EngineVerdict> => {
        const request = requests[i] as IndexRequest;
        if (result.status === 'decided') {
          return replayVerdict(
            result.verdict,
            await this.store.resolveCluster(result.verdict.clusterId),
            reused(request, result.exact),
          );
        }
        const story = stories[i] ?? null;
        const { decision, best } = this.judge(
          request,
          Number.POSITIVE_INFINITY,
          scoredOf[i] as Scored[],
          story,
        );
        // The oldest joined message's current cluster: commit unions the joined clusters into the
        // oldest, so that is where the message would land.
        const seqOf = new Map(result.candidates.map((c) => [c.id, c.seq]));
        const join = [...decision.joins].sort(
          (a, b) => (seqOf.get(a) ?? Number.POSITIVE_INFINITY) - (seqOf.get(b) ?? Number.POSITIVE_INFINITY),
        )[0];
        let clusterId = request.id;
        if (join !== undefined) {
          const joined = await this.store.verdict(join);
          clusterId = await this.store.resolveCluster(joined?.clusterId ?? join);
        }
        return this.toVerdict(
          decision,
          best,
          clusterId,
          [],
          result.candidates.length,
          result.hotBuckets,
          false,
          story,
        );
      }),
    );
    markTruncated(requests, verdicts);
    return verdicts;
  }

  /**
   * The story each message with only story-level matches would join (engine/story.ts), from the
   * current clusters of those matches; null for the others. One store read per distinct
   * candidate, all in flight together.
   */
  private async storyLinks(
    requests: readonly IndexRequest[],
    scoredOf: readonly Scored[][],
    candidateLists: ReadonlyArray<readonly Candidate[]>,
  ): Promise<Array<StoryLink | null>> {
    const wanted = new Map<string, Candidate>();
    const storyOnly = scoredOf.map((scored) => {
      if (scored.some((s) => s.level.level !== 'story')) return [];
      return scored;
    });
    // Every candidate of such a message: the members that do not match count against a story.
    const candidatesOf = new Map<number, readonly Candidate[]>();
    storyOnly.forEach((scored, r) => {
      if (scored.length === 0) return;
      const all = candidateLists[r] ?? [];
      candidatesOf.set(r, all);
      for (const c of all) wanted.set(c.id, c);
    });
    if (wanted.size === 0) return scoredOf.map(() => null);
    // Candidates of this batch have no verdict yet: their titles are the requests'.
    const pendingTitles = new Map<string, string>();
    for (const q of requests) if (q.title !== undefined) pendingTitles.set(q.id, q.title);
    const clusters: Map<string, StoryCluster> = await candidateClusters(
      this.store,
      [...wanted.values()],
      pendingTitles,
    );
    return storyOnly.map((scored, r) => {
      if (scored.length === 0) return null;
      const matched = new Set(scored.map((s) => s.candidate.id));
      const request = requests[r] as IndexRequest;
      const facts = this.config.decision.storyFacts;
      return chooseStory(
        scored.map((s) => ({
          id: s.candidate.id,
          seq: s.candidate.seq,
          similarity: s.level.similarity,
          facts: facts ? factsRelation(request.record.dates, s.candidate.record.dates) : 'unknown',
        })),
        (candidatesOf.get(r) ?? []).map((c) => c.id).filter((id) => !matched.has(id)),
        clusters,
        request.ts,
        this.config.decision,
        request.title,
      );
    });
  }

  /**
   * A replayed message (decided before: a crash after the store commit but before its outputs
   * were acknowledged, a Kafka rebalance, a file run twice) gets its verdict again from the
   * store, but the store keeps no story events. So that a stream of story events never misses a
   * cluster change, a replay gets the event its first decision made, with the cluster as it is
   * now: `created` when the message roots its cluster, else `grown` (its verdict says `replay`).
   * Replays are rare: one store read each, in parallel. Not recoverable: the `mergedFrom` list of
   * a merge the lost batch made (docs/kafka.md).
   */
  private async replayStoryEvents(verdicts: EngineVerdict[]): Promise<void> {
    const replayed = verdicts.filter((v) => v.replay === true && v.events.length === 0);
    if (replayed.length === 0) return;
    const views = await Promise.all(replayed.map((v) => this.store.cluster(v.clusterId)));
    replayed.forEach((v, i) => {
      const c = views[i];
      // No cluster (expired from the window since): nothing current to report.
      if (!c) return;
      v.events.push({
        type: c.id === v.id ? 'created' : 'grown',
        clusterId: c.id,
        messageId: v.id,
        size: c.size,
        firstSeen: c.firstSeen,
        lastSeen: c.lastSeen,
        representative: c.representative,
      });
    });
  }

  private toVerdict(
    d: Decision,
    best: Scored | null,
    clusterId: string,
    events: StoryEvent[],
    candidates: number,
    hot: number,
    replay: boolean,
    story: StoryLink | null = null,
  ): EngineVerdict {
    const out: EngineVerdict = {
      id: d.id,
      verdict: d.verdict,
      clusterId,
      events,
      candidates,
      hotBuckets: hot,
    };
    if (d.duplicateOf !== undefined) out.duplicateOf = d.duplicateOf;
    if (d.similarity !== undefined) out.similarity = d.similarity;
    if (d.method !== undefined) out.method = d.method;
    if (best) out.evidence = best.evidence;
    if (replay) out.replay = true;
    if (story) out.story = story;
    return out;
  }

  /** Every candidate verified and given its match level (those at no level left out). */
  private score(request: IndexRequest, candidates: readonly Candidate[]): Scored[] {
    const scored: Scored[] = [];
    const verifier = this.verifier.load(request.record);
    verifier.touch(candidates);
    // Each candidate is measured into one scratch object; only a match keeps a copy.
    const scratch = this.scratchEvidence;
    for (const candidate of candidates) {
      verifier.compareInto(candidate.record, scratch);
      const level = matchLevel(scratch, this.config.decision, request.record.tokens, candidate.record.tokens);
      if (level.level !== 'none') scored.push({ candidate, evidence: copyEvidence(scratch), level });
    }
    this.discountCommonSentences(request, candidates, scored);
    this.storyBeyondSharedSentences(request, candidates, scored);
    return scored;
  }

  /**
   * Story-level matches judged again without the shared sentences that candidates of
   * `decision.storySharedSentenceGroups` different texts hold (engine/story-sentences.ts); a
   * match left under the story thresholds is dropped. Only a message with a story-level match
   * pays for it.
   */
  private storyBeyondSharedSentences(
    request: IndexRequest,
    candidates: readonly Candidate[],
    scored: Scored[],
  ): void {
    const decision = this.config.decision;
    const groups = decision.storySharedSentenceGroups ?? null;
    if (groups === null || !scored.some((s) => s.level.level === 'story')) return;
    const common =
      groups <= 1 ? null : commonSentences(request.record, candidates, groups, decision.nearDuplicate);
    if (common !== null && common.length === 0) return;
    for (let i = scored.length - 1; i >= 0; i--) {
      const s = scored[i] as Scored;
      const level = storyBeyondSharedSentences(
        s.level,
        s.evidence,
        request.record,
        s.candidate.record,
        decision,
        common,
      );
      // The evidence shown stays what was measured; the level is the one the rest supports.
      if (level.level === 'none') scored.splice(i, 1);
      else if (level !== s.level) scored[i] = { candidate: s.candidate, evidence: s.evidence, level };
    }
  }

  /**
   * Matches by sentence containment judged again without the sentences common in the window
   * (engine/common-sentences.ts). Only a message with such a match pays for it.
   */
  private discountCommonSentences(
    request: IndexRequest,
    candidates: readonly Candidate[],
    scored: Scored[],
  ): void {
    const decision = this.config.decision;
    const groups = decision.commonSentenceGroups ?? null;
    if (groups === null) return;
    const bySentences = (s: Scored) =>
      s.level.level === 'near_duplicate' &&
      s.level.method === 'containment' &&
      s.evidence.contained !== undefined;
    if (!scored.some(bySentences)) return;
    const common = commonSentences(request.record, candidates, groups, decision.nearDuplicate);
    if (common.length === 0) return;
    for (let i = scored.length - 1; i >= 0; i--) {
      const s = scored[i] as Scored;
      if (!bySentences(s)) continue;
      const evidence = { ...s.evidence };
      containedWithout(evidence, request.record, s.candidate.record, common);
      const level = matchLevel(evidence, decision, request.record.tokens, s.candidate.record.tokens);
      if (level.level === 'none') scored.splice(i, 1);
      else scored[i] = { candidate: s.candidate, evidence, level };
    }
  }

  /**
   * Verdict from the scored candidates: `duplicateOf` and the clusters joined as engine/choose.ts
   * says, or the story `story` accepted (engine/story.ts).
   */
  private judge(
    request: IndexRequest,
    seq: number,
    scored: readonly Scored[],
    storyLink: StoryLink | null,
  ): { decision: Decision; best: Scored | null } {
    const match = chooseDuplicateOf(scored, this.config.decision.strongJaccard ?? 1);
    const duplicate = match?.level.level === 'duplicate' ? match : null;
    const near = match?.level.level === 'near_duplicate' ? match : null;
    const story =
      match || !storyLink?.joined ? null : (scored.find((s) => s.candidate.id === storyLink.via) ?? null);
    const best = duplicate ?? near ?? story;
    const decision: Decision = {
      id: request.id,
      seq,
      ts: request.ts,
      verdict: duplicate ? 'duplicate' : near ? 'near_duplicate' : 'unique',
      joins: joinsOf(scored, story, match),
    };
    if (request.title !== undefined) decision.title = request.title;
    if (match) {
      decision.duplicateOf = match.candidate.id;
      decision.similarity = roundSimilarity(match.level.similarity);
      decision.method = match.level.method;
    } else if (story) {
      decision.similarity = roundSimilarity(story.level.similarity);
      decision.method = `story:${story.level.method}`;
    }
    const detail = encodeDetail({
      lang: request.record.lang,
      url: request.url,
      snippet: request.snippet,
      evidence: best?.evidence,
      via: story && !match ? story.candidate.id : undefined,
    });
    if (detail !== '') decision.detail = detail;
    return { decision, best };
  }
}

/**
 * An id met again with content other than its first: the exact hashes (canonical text) differ.
 * Unknown (a store without the record's hash) counts as the same content: a replay.
 */
function reused(request: IndexRequest, firstExact: string | undefined): boolean {
  return firstExact !== undefined && firstExact !== request.record.exact;
}

/** A verdict says when its message's text was cut (a mail of too many MIME parts). */
function markTruncated(inputs: readonly IndexRequest[], verdicts: EngineVerdict[]): void {
  inputs.forEach((input, i) => {
    const verdict = verdicts[i];
    if (input.truncatedParts !== undefined && verdict) verdict.truncatedParts = input.truncatedParts;
  });
}

/**
 * The verdict of a message decided before (a replay): its first verdict, in `clusterId` now;
 * `conflict` when its content is not the one first decided.
 */
function replayVerdict(first: StoredVerdict, clusterId: string, conflict: boolean): EngineVerdict {
  const out: EngineVerdict = {
    id: first.id,
    verdict: first.verdict,
    clusterId,
    replay: true,
    ...(conflict ? { conflict: true } : {}),
    events: [],
    candidates: 0,
    hotBuckets: 0,
  };
  if (first.duplicateOf !== undefined) out.duplicateOf = first.duplicateOf;
  if (first.similarity !== undefined) out.similarity = first.similarity;
  if (first.method !== undefined) out.method = first.method;
  return out;
}

/**
 * A title as stores keep it: whitespace runs made one space, cut to MAX_TITLE_LENGTH characters
 * (whole code points); undefined when empty.
 */
export function displayTitle(title: string | undefined): string | undefined {
  if (title === undefined) return undefined;
  const flat = title.replace(/\s+/g, ' ').trim();
  if (flat === '') return undefined;
  const chars = Array.from(flat);
  return chars.length <= MAX_TITLE_LENGTH ? flat : `${chars.slice(0, MAX_TITLE_LENGTH - 1).join('')}…`;
}
