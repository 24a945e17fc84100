/**
 * `node --import ./dist/bench/heap-sites.js bin/doppel.js dedup ...` (after `npm run build`): the
 * bytes the main thread allocates, garbage included, per message and by the function that
 * allocates them, printed to stderr at exit. V8's sampling heap profiler (one sample per 4 KiB on
 * average) with the objects young and full collections freed kept in the sample. Sign workers are
 * not profiled. `BENCH_MESSAGES` (the input's message count) turns the bytes into bytes per message;
 * `BENCH_HEAP_TOP` sites are listed (default 25). Not loaded by anything shipped.
 */
import { Session } from 'node:inspector';
import { isMainThread } from 'node:worker_threads';

interface SamplingNode {
  selfSize: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children: SamplingNode[];
}

const messages = Number(process.env.BENCH_MESSAGES ?? 1);
const top = Number(process.env.BENCH_HEAP_TOP ?? 25);

function bySite(node: SamplingNode, into: Map<string, number>): number {
  let total = node.selfSize;
  if (node.selfSize > 0) {
    const { functionName, url, lineNumber } = node.callFrame;
    const site = `${functionName || '(anonymous)'} ${url.replace(/^.*\/dist\//, '')}:${lineNumber + 1}`;
    into.set(site, (into.get(site) ?? 0) + node.selfSize);
  }
  for (const child of node.children) total += bySite(child, into);
  return total;
}

if (isMainThread) {
  const session = new Session();
  session.connect();
  session.post('HeapProfiler.enable');
  session.post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  // The inspector answers synchronously on the main thread, so the report is written before exit.
  process.on('exit', () => {
    session.post('HeapProfiler.stopSampling', (error, result) => {
      if (error) return;
      const sites = new Map<string, number>();
      const total = bySite((result as { profile: { head: SamplingNode } }).profile.head, sites);
      const per = (bytes: number) => Math.round(bytes / messages);
      const lines = [`main thread: ${per(total)} bytes allocated per message (${messages} messages)`];
      for (const [site, bytes] of [...sites].sort((a, b) => b[1] - a[1]).slice(0, top))
        lines.push(`  ${per(bytes)}  ${site}`);
      process.stderr.write(`${lines.join('\n')}\n`);
    });
  });
}
