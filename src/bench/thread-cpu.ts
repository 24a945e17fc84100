/**
 * Preloaded by `dist/bench/threads.js` (`node --import`) into a `doppel dedup` process and, through
 * the inherited execArgv, into each of its sign workers: writes each thread's own CPU time
 * (`process.threadCpuUsage`) to `$DOPPEL_THREAD_CPU_OUT-<thread>.json`. The main thread writes at
 * exit, with the whole process's CPU beside it; a worker writes after every answer it posts (a
 * terminated worker runs no exit handler), with their number. Not loaded by anything shipped.
 */
import { writeFileSync } from 'node:fs';
import { isMainThread, parentPort, threadId } from 'node:worker_threads';

const out = process.env.DOPPEL_THREAD_CPU_OUT;

function seconds(u: NodeJS.CpuUsage): number {
  return (u.user + u.system) / 1e6;
}

/** This thread's CPU (Node 22.x has it; the @types/node of the lockfile does not declare it yet). */
function threadCpu(): number {
  return seconds((process as unknown as { threadCpuUsage(): NodeJS.CpuUsage }).threadCpuUsage());
}

if (out) {
  if (isMainThread) {
    process.on('exit', () => {
      writeFileSync(
        `${out}-main.json`,
        JSON.stringify({ thread: threadCpu(), process: seconds(process.cpuUsage()) }),
      );
    });
  } else if (parentPort) {
    // After every answer the worker posts (its ready message included): the clock is read once the
    // job is done, whatever the job awaited.
    const port = parentPort;
    const post = port.postMessage.bind(port);
    let answers = 0;
    let ready = 0;
    port.postMessage = (value: unknown, transfer?: Parameters<typeof port.postMessage>[1]) => {
      post(value, transfer);
      const thread = threadCpu();
      // The first answer is the worker's "ready": what its start-up cost.
      if (++answers === 1) ready = thread;
      writeFileSync(`${out}-worker-${threadId}.json`, JSON.stringify({ thread, ready, answers }));
    };
  }
}
