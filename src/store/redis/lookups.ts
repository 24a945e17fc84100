import type {
  ClusterListPage,
  ClusterListQuery,
  ClusterLookup,
  ClusterMembersPage,
  ClusterView,
  StoredVerdict,
  VerdictReadOptions,
} from '../../engine/types.js';
import { parseCluster, parseClustersPage, parseMembersPage, parseVerdict } from './codec.js';
import { idAddress } from './keys.js';

export type LookupScript = 'read' | 'members' | 'clusters';
export type LookupArg = string | number | Buffer;

/**
 * The lookups of the store port (verdict, cluster, members, list, resolve), which both Redis
 * stores answer alike: one read-1.lua, members-1.lua or clusters-1.lua call on the namespace's
 * home (the single Redis, or the cluster's home shard), replies as strings.
 */
export abstract class RedisLookups {
  constructor(
    private readonly idShards: number,
    private readonly clusterShards: number,
  ) {}

  /** `script` with the home's meta as its key, ARGV: the home's base, `args`, the epoch. */
  protected abstract lookup(what: string, script: LookupScript, args: LookupArg[]): Promise<unknown>;

  private async read(mode: 'verdict' | 'detail' | 'cluster' | 'resolve', id: string): Promise<string | null> {
    const address = idAddress(id, this.idShards);
    const reply = await this.lookup(`read ${mode}`, 'read', [
      this.clusterShards,
      mode,
      address.shard,
      address.field,
      id,
    ]);
    return reply === null || reply === undefined ? null : String(reply);
  }

  async verdict(id: string, options?: VerdictReadOptions): Promise<StoredVerdict | null> {
    const json = await this.read(options?.detail ? 'detail' : 'verdict', id);
    return json === null ? null : parseVerdict(id, json);
  }

  /** The verdicts of `ids` in one read-1.lua call (mode verdicts): the engine's story reads. */
  async verdictsOf(ids: readonly string[]): Promise<Array<StoredVerdict | null>> {
    if (ids.length === 0) return [];
    const args: LookupArg[] = [this.clusterShards, 'verdicts'];
    for (const id of ids) {
      const address = idAddress(id, this.idShards);
      args.push(address.shard, address.field, id);
    }
    const reply = (await this.lookup('read verdicts', 'read', args)) as Array<string | null>;
    return ids.map((id, i) => {
      const json = reply[i];
      return json === null || json === undefined ? null : parseVerdict(id, String(json));
    });
  }

  /**
   * The current cluster of each lookup's `id`, else of its `fallback`, in one read-1.lua call
   * (mode clusters): the engine's story reads.
   */
  async clustersOf(lookups: readonly ClusterLookup[]): Promise<Array<ClusterView | null>> {
    if (lookups.length === 0) return [];
    const args: LookupArg[] = [this.clusterShards, 'clusters'];
    for (const { id, fallback } of lookups) {
      const address = idAddress(id, this.idShards);
      args.push(address.shard, address.field, id);
      if (fallback === undefined) args.push('', '', '');
      else {
        const other = idAddress(fallback, this.idShards);
        args.push(other.shard, other.field, fallback);
      }
    }
    const reply = (await this.lookup('read clusters', 'read', args)) as Array<string | null>;
    return lookups.map((_, i) => {
      const json = reply[i];
      return json === null || json === undefined ? null : parseCluster(String(json));
    });
  }

  async cluster(id: string): Promise<ClusterView | null> {
    const json = await this.read('cluster', id);
    return json === null ? null : parseCluster(json);
  }

  async resolveCluster(id: string): Promise<string> {
    return (await this.read('resolve', id)) ?? id;
  }

  async clusterMembers(clusterId: string, after: number, limit: number): Promise<ClusterMembersPage | null> {
    const address = idAddress(clusterId, this.idShards);
    const reply = (await this.lookup('members', 'members', [
      this.clusterShards,
      address.shard,
      address.field,
      after,
      limit,
    ])) as Array<string | number> | null;
    return parseMembersPage(reply);
  }

  async listClusters(query: ClusterListQuery): Promise<ClusterListPage> {
    const reply = (await this.lookup('clusters', 'clusters', [
      this.clusterShards,
      query.order,
      query.since,
      query.after === null ? '' : query.after.score,
      query.after === null ? '' : query.after.root,
      query.limit,
    ])) as Array<string | number>;
    return parseClustersPage(reply);
  }
}
