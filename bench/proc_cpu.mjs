// CPU time of the browser's processes and threads from /proc (Linux only), for the page's benchmarks
// (bench/frames.mjs, bench/page_cpu.mjs): which processes descend from this node process, and each
// thread's user + system clock ticks, and the CPU seconds of each group of threads between two snapshots.
import { readFileSync, readdirSync } from 'node:fs';

export const TICK = 100;  // USER_HZ: clock ticks per second in /proc stat (100 on Linux)

// Every process below this node process: pid -> { ppid, cmdline }.
export function descendants() {
  const all = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      all.set(Number(d), { ppid, cmdline: readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0').join(' ') });
    } catch { /* gone */ }
  }
  const mine = new Map(), queue = [process.pid];
  while (queue.length) {
    const p = queue.pop();
    for (const [pid, info] of all) if (info.ppid === p && !mine.has(pid)) mine.set(pid, info), queue.push(pid);
  }
  return mine;
}

// CPU ticks per thread of `pid`: tid -> { comm, ticks }.
export function threadTicks(pid) {
  const out = new Map();
  let tasks = [];
  try { tasks = readdirSync(`/proc/${pid}/task`); } catch { return out; }
  for (const t of tasks) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(t), { comm, ticks: Number(f[11]) + Number(f[12]) });
    } catch { /* gone */ }
  }
  return out;
}

export function snapshot(procs) {
  const s = new Map();
  for (const pid of procs.keys()) s.set(pid, threadTicks(pid));
  return s;
}

// CPU seconds between the snapshots a and b, by group: the busiest renderer's main thread, its
// workers and its other threads (the page's renderer; another renderer, idle, is left out), the GPU
// process, and the browser's other processes. A thread born between the snapshots counts from 0.
export function cpuSeconds(procs, a, b) {
  const per = (pid, pick = () => true) => {
    let ticks = 0;
    for (const [tid, t] of b.get(pid) || []) if (pick(tid, t)) ticks += t.ticks - (a.get(pid)?.get(tid)?.ticks ?? 0);
    return ticks / TICK;
  };
  const isRenderer = (info) => info.cmdline.includes('--type=renderer');
  let renderer = null, best = -1;
  for (const [pid, info] of procs) {
    if (!isRenderer(info)) continue;
    const all = per(pid);
    if (all > best) best = all, renderer = pid;
  }
  const out = { main: NaN, workers: NaN, rendererOther: NaN, gpu: 0, browser: 0 };
  if (renderer) {
    out.main = per(renderer, (tid) => tid === renderer);
    out.workers = per(renderer, (tid, t) => tid !== renderer && /Worker/i.test(t.comm));
    out.rendererOther = per(renderer, (tid, t) => tid !== renderer && !/Worker/i.test(t.comm));
  }
  for (const [pid, info] of procs) {
    if (info.cmdline.includes('--type=gpu-process')) out.gpu += per(pid);
    else if (!isRenderer(info)) out.browser += per(pid);
  }
  return out;
}
