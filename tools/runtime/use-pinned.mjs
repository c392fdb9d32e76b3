// Import first in a script people start with a plain `node …` (the benches, tools/stack/start.mjs, the build and
// db tools): on the pinned Node (tools/runtime/pinned.cjs) it only puts node_modules/.bin first on PATH, so the
// tools the script starts by name (swc, forge's solc shim) run on it too; on any other Node it runs the same
// script again on the pinned one, says so on stderr, and ends as that run ends (exit code or signal).
//   import '../../tools/runtime/use-pinned.mjs';
import { spawn } from 'node:child_process';
import { relative } from 'node:path';
import runtime from './pinned.cjs';

const script = process.argv[1] ?? 'this script';
const LAUNCHER = 'DEX_RUNTIME_LAUNCHER_PID';

if (runtime.onPinned()) {
  process.env.PATH = runtime.withBinFirst(process.env).PATH;
  // Started by a launcher below: end with it if it is killed outright (it can't forward SIGKILL).
  const launcher = Number(process.env[LAUNCHER]);
  delete process.env[LAUNCHER];
  if (launcher) {
    setInterval(() => {
      if (process.ppid !== launcher) process.kill(process.pid, 'SIGTERM');
    }, 1_000).unref();
  }
} else {
  if (!runtime.installed()) {
    console.error(`✗ ${runtime.problem(script)}`);
    process.exit(1);
  }
  process.stderr.write(`runtime: node ${process.version} is not the workspace's; running ${relative(process.cwd(), script) || script} on node v${runtime.version} (node_modules/.bin/node)\n`);
  // Its own process group, so that a terminal's Ctrl-C (or a signal to this group) reaches it once, from here.
  const child = spawn(runtime.binary, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...runtime.withBinFirst(process.env), [LAUNCHER]: String(process.pid) },
    detached: true,
  });
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const signal of signals) process.on(signal, () => child.kill(signal));
  child.once('error', (error) => {
    console.error(`✗ could not start ${runtime.binary}: ${error.message}`);
    process.exit(1);
  });
  child.once('exit', (code, signal) => {
    if (signal) {
      for (const s of signals) process.removeAllListeners(s);
      process.kill(process.pid, signal);
    }
    process.exit(code ?? 1);
  });
  // The script itself must not go on here: hold its evaluation until the run on the pinned Node ends.
  await new Promise(() => {});
}
