// Helpers of the benches that measure the running stack: HTTP GETs on a keep-alive agent, an open-loop load,
// percentiles, the services' metrics, and the CPU time of processes (Linux /proc).
import { spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { rng } from './synthetic-graph.mjs';

const REQUEST_TIMEOUT_MS = 10_000;

/** A command-line option `name` taking a whole number above 0 (`--seconds 60`): its value, or `fallback` when absent. */
export function wholeNumberOption(args, name, fallback) {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const value = Number(args[at + 1]);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} takes a whole number, got ${JSON.stringify(args[at + 1])}`);
  return value;
}

export const quantile = (sorted, q) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]);
export const summary = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { count: s.length, p50: quantile(s, 0.5), p90: quantile(s, 0.9), p99: quantile(s, 0.99), max: s[s.length - 1] };
};

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

/** Closes the keep-alive sockets, so the script can end. */
export const closeAgent = () => agent.destroy();

/** One GET; resolves with the status (0 when the request failed) and, when asked, the body. */
export function get(url, keepBody = false) {
  return new Promise((done) => {
    const req = http.get(url, { agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => keepBody && chunks.push(c));
      res.on('end', () => done({ status: res.statusCode, body: keepBody ? Buffer.concat(chunks).toString() : undefined }));
      res.on('error', (e) => done({ status: 0, error: e.message }));
    });
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', (e) => done({ status: 0, error: e.message }));
  });
}

/**
 * The requests of a run: the queries of the mix in turn, each time at a different size (the query's amount
 * times 0.5 to 2, seeded, 4 significant digits), as users ask: no two requests in a row are the same.
 */
function schedule(mix, total, seed) {
  const rand = rng(seed);
  return Array.from({ length: total }, (_, i) => {
    const q = i % mix.length;
    const amount = mix[q].amount * 2 ** (rand() * 2 - 1);
    const decimals = Math.min(6, Math.max(0, 3 - Math.floor(Math.log10(amount))));
    return { query: q, path: mix[q].path(amount.toFixed(decimals)) };
  });
}

/** Sends `rate` requests a second for `seconds`, on schedule whatever the answers; latency from the scheduled time. */
export async function openLoop(base, mix, rate, seconds, seed) {
  const total = Math.max(1, Math.round(rate * seconds));
  const requests = schedule(mix, total, seed);
  const interval = 1000 / rate;
  const results = new Array(total);
  const pending = [];
  const t0 = performance.now() + 20;
  let next = 0;
  while (next < total) {
    const now = performance.now();
    while (next < total && t0 + next * interval <= now) {
      const i = next++;
      const scheduled = t0 + i * interval;
      const sent = performance.now();
      const request = requests[i];
      pending.push(
        get(base + request.path).then((r) => {
          results[i] = { query: request.query, status: r.status, error: r.error, latency: performance.now() - scheduled, sendLag: sent - scheduled, done: performance.now() };
        }),
      );
    }
    if (next < total) await new Promise((r) => setTimeout(r, Math.max(0, t0 + next * interval - performance.now())));
  }
  const lastScheduled = t0 + (total - 1) * interval;
  await Promise.all(pending);
  const end = Math.max(...results.map((r) => r.done));
  return { results, t0, lastScheduled, end, total };
}

/**
 * Sums and counts of the histograms the services record for the route's HTTP requests and for the bus
 * `subject` (the built @dex/messages' SUBJECTS.aggregatorRoute).
 */
export async function scrape(url, subject) {
  const res = await get(`${url}/metrics`, true);
  if (res.status !== 200) return {};
  const out = {};
  for (const line of res.body.split('\n')) {
    const m = /^(\w+)_(sum|count)\{([^}]*)\} (\S+)$/.exec(line);
    if (!m) continue;
    const [, name, kind, labels, value] = m;
    const keep =
      (name === 'http_request_duration_seconds' && labels.includes('route="/v2/route"')) ||
      ((name === 'nats_request_duration_seconds' || name === 'nats_handler_duration_seconds') && labels.includes(`subject="${subject}"`));
    if (!keep) continue;
    out[name] ??= { sum: 0, count: 0 };
    out[name][kind] += Number(value);
  }
  return out;
}
export const meanMs = (before, after, name) => {
  const a = after[name];
  if (!a) return NaN;
  const b = before[name] ?? { sum: 0, count: 0 };
  return a.count > b.count ? ((a.sum - b.sum) / (a.count - b.count)) * 1000 : NaN;
};

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); undefined elsewhere. */
/** A process's resident memory (VmRSS) in MB; NaN when it cannot be read (Linux /proc). */
export function rssMb(pid) {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
    return Number(line.split(/\s+/)[1]) / 1024;
  } catch {
    return NaN;
  }
}

export function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return undefined;
  }
}

/** Busy and total CPU time of the whole machine so far, from /proc/stat (Linux); undefined elsewhere. */
export function machineCpu() {
  try {
    const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
    const n = ticks.map(Number);
    const total = n.slice(0, 8).reduce((a, b) => a + b, 0); // user nice system idle iowait irq softirq steal
    return { busy: total - n[3] - n[4], total };
  } catch {
    return undefined;
  }
}

/** The pid of the nats-server listening on `port`, found in /proc (Linux). */
export function natsServerPid(port) {
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const cmdline = (() => {
        try {
          return readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
        } catch {
          return [];
        }
      })();
      if (cmdline[0]?.endsWith('nats-server') && cmdline.includes(String(port))) return Number(entry);
    }
  } catch {
    // no /proc
  }
  return undefined;
}

/**
 * Steps that undo what a bench set up, run in reverse order once, whatever happens (failure, Ctrl-C); the
 * bench registers them as it goes and calls `run` at the end.
 */
export function cleanupSteps(label) {
  const steps = [];
  let running;
  const run = () => {
    running ??= (async () => {
      // Some steps wait for a child's exit event; an unreferenced child alone would not keep the process alive.
      const keepAlive = setInterval(() => undefined, 1_000);
      for (const step of steps.splice(0).reverse()) {
        try {
          await step();
        } catch (error) {
          process.stderr.write(`${label}: cleanup step failed: ${error?.message ?? error}\n`);
        }
      }
      clearInterval(keepAlive);
    })();
    return running;
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(signal, () => {
      process.stderr.write(`${label}: ${signal}, cleaning up\n`);
      void run().finally(() => process.exit(130));
    });
  }
  return { push: (step) => steps.push(step), run };
}

/**
 * Starts a built app (`<root>/dist/apps/<name>/src/main.js`) on a free port of 127.0.0.1 (`freePort`, the built
 * devnet-kit's), its output appended to `<dir>/<logName>.log`, and adds it to `apps`.
 */
export async function startBuiltApp({ root, dir, apps, freePort, name, env, nodeArgs = [], logName = name }) {
  const port = await freePort();
  const logFile = join(dir, `${logName}.log`);
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, [...nodeArgs, join(root, 'dist/apps', name, 'src/main.js')], {
    cwd: root,
    env: { ...env, HTTP_PORT: String(port), HTTP_HOST: '127.0.0.1' },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const app = { name, child, url: `http://127.0.0.1:${port}`, logFile };
  apps.push(app);
  return app;
}

/** Stops app processes (SIGTERM, SIGKILL after 5 s); also kills them if the bench exits first. */
export function stopAppsOnCleanup(apps, cleanups) {
  cleanups.push(async () => {
    await Promise.all(
      apps.map(
        (app) =>
          new Promise((done) => {
            if (app.child.exitCode !== null || app.child.signalCode !== null) return done();
            const timer = setTimeout(() => app.child.kill('SIGKILL'), 5_000);
            app.child.once('exit', () => {
              clearTimeout(timer);
              done();
            });
            app.child.kill('SIGTERM');
          }),
      ),
    );
  });
  process.once('exit', () => {
    for (const app of apps) if (app.child.exitCode === null && app.child.signalCode === null) app.child.kill('SIGKILL');
  });
}
