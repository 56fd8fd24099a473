// CPU time of the browser's processes and threads from /proc (Linux only), for the page's benchmarks
// (bench/frames.mjs, bench/page_cpu.mjs): which processes descend from this node process, and each
// thread's user + system clock ticks.
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
