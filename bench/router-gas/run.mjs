#!/usr/bin/env node
// RouterV2 gas report: runs the forge gas benches (libs/contracts/test/bench/RouterV2Gas.t.sol and
// RouterV2ConcentratedGas.t.sol, RouterV2UniswapV4Gas.t.sol), reads the figures they log and prints the router's
// single-hop overhead over the cheapest direct trade on the same pool against the target: on a V2 pair, on a Uniswap V3
// pool, on an Algebra Integral pool and on a Uniswap V4 pool of v4-core's PoolManager (the real bytecode of each, from
// their npm packages). The exit code is 0 whether the target is met or missed (this is a report); it is non-zero only when
// the bench itself fails (forge fails, a bench test fails, or a figure is missing). Beside `executeSwaps` it prints
// the signed-route entry, RouterV2Permit2's `executeSwapsWithPermit2` (a wallet that approved only Permit2 signs the
// route; here relayed), on the same single-hop and 2-hop routes, and its overhead over `executeSwaps` (no target).
//
//   node bench/router-gas/run.mjs          the table
//   node bench/router-gas/run.mjs --json   the figures and the verdict as one JSON object

import '../../tools/runtime/use-pinned.mjs'; // first: on another Node, runs this script on the pinned one
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const OVERHEAD_TARGET = 30_000;
const TX_BASE_GAS = 21_000;
const MAX_REFUND_QUOTIENT = 5; // EIP-3529: the refund is at most a fifth of the transaction's gas.
const BENCH_PATH = 'test/bench/RouterV2*Gas.t.sol';

/** Every figure the bench logs (`log_named_uint` keys) that the report needs. */
const KEYS = [
  'direct_single_hop',
  'router_single_hop',
  'router_single_hop_refund',
  'router_single_hop_calldata',
  'router_split_2way',
  'router_two_hops',
  'router_three_hops',
  'router_split_paths',
  'router_diamond',
  'router_native_in',
  'router_native_out',
  'direct_v3_single_hop',
  'router_v3_single_hop',
  'direct_algebra_single_hop',
  'router_algebra_single_hop',
  'router_split_v3_algebra_v2',
  'router_two_hops_v3_algebra',
  'direct_v4_single_hop',
  'router_v4_single_hop',
  'router_v4_split_2way',
  'router_v4_v3_split',
  'router_v4_native_in',
  'router_v4_native_out',
  'permit2_single_hop',
  'permit2_single_hop_refund',
  'permit2_single_hop_calldata',
  'permit2_single_hop_used_word',
  'permit2_single_hop_used_word_refund',
  'permit2_two_hops',
  'permit2_two_hops_refund',
];

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const contractsDir = join(repoRoot, 'libs', 'contracts');
const forge = join(repoRoot, 'node_modules', '.bin', 'forge');

function fail(message, details) {
  console.error(`router-gas bench failed: ${message}`);
  if (details) console.error(details.trim());
  process.exit(1);
}

/** Runs the bench and returns forge's JSON result. forge must run from libs/contracts (its solc path is relative). */
function runBench() {
  if (!existsSync(forge)) fail(`forge not found at ${forge} (install the workspace's dependencies first)`);
  const result = spawnSync(forge, ['test', '--match-path', BENCH_PATH, '--json', '-vv'], {
    cwd: contractsDir,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) fail(`could not run forge: ${result.error.message}`);
  const stdout = result.stdout ?? '';
  const start = stdout.indexOf('{');
  if (start < 0) fail(`forge printed no JSON (exit code ${result.status})`, `${result.stderr}\n${stdout}`);
  let report;
  try {
    report = JSON.parse(stdout.slice(start));
  } catch (error) {
    fail(`could not parse forge's JSON: ${error.message}`, result.stderr);
  }
  if (result.status !== 0) {
    fail(`forge exited with ${result.status}`, `${describeFailures(report)}\n${result.stderr}`);
  }
  return report;
}

function describeFailures(report) {
  const lines = [];
  for (const [suite, { test_results: tests }] of Object.entries(report)) {
    for (const [name, test] of Object.entries(tests)) {
      if (test.status !== 'Success') lines.push(`${suite} ${name}: ${test.status} ${test.reason ?? ''}`);
    }
  }
  return lines.join('\n');
}

/** Collects `key: value` lines from every bench test's decoded logs. */
function readFigures(report) {
  const figures = {};
  let tests = 0;
  for (const { test_results: results } of Object.values(report)) {
    for (const [name, test] of Object.entries(results)) {
      tests += 1;
      if (test.status !== 'Success') fail(`${name}: ${test.status} ${test.reason ?? ''}`);
      for (const line of test.decoded_logs ?? []) {
        const match = /^([a-z0-9_]+): (\d+)$/.exec(line.trim());
        if (match) figures[match[1]] = Number(match[2]);
      }
    }
  }
  if (tests === 0) fail(`no test ran (is ${BENCH_PATH} still there?)`);
  const missing = KEYS.filter((key) => !(key in figures));
  if (missing.length > 0) fail(`the bench logged no ${missing.join(', ')}`);
  return figures;
}

function summarize(f) {
  const overhead = f.router_single_hop - f.direct_single_hop;
  // What the chain actually refunds the router's transaction: the refund it earned, capped at a fifth of the
  // transaction's gas (intrinsic + calldata + execution).
  const txGas = TX_BASE_GAS + f.router_single_hop_calldata + f.router_single_hop;
  const grantedRefund = Math.min(f.router_single_hop_refund, Math.floor(txGas / MAX_REFUND_QUOTIENT));
  const v3Overhead = f.router_v3_single_hop - f.direct_v3_single_hop;
  const algebraOverhead = f.router_algebra_single_hop - f.direct_algebra_single_hop;
  const v4Overhead = f.router_v4_single_hop - f.direct_v4_single_hop;
  const verdict = (value) => (value <= OVERHEAD_TARGET ? 'PASS' : 'MISS');
  // The signed-route entry against `executeSwaps` on the same route: execution gas, and after each transaction's
  // granted refund (RouterV2Permit2 holds the input for the length of the call, a slot written and cleared).
  const granted = (refund, exec, calldata) =>
    Math.min(refund, Math.floor((TX_BASE_GAS + calldata + exec) / MAX_REFUND_QUOTIENT));
  const routerSingleHopNet =
    f.router_single_hop - granted(f.router_single_hop_refund, f.router_single_hop, f.router_single_hop_calldata);
  const permit2 = {
    singleHopOverhead: f.permit2_single_hop - f.router_single_hop,
    singleHopUsedWordOverhead: f.permit2_single_hop_used_word - f.router_single_hop,
    twoHopsOverhead: f.permit2_two_hops - f.router_two_hops,
    calldataOverhead: f.permit2_single_hop_calldata - f.router_single_hop_calldata,
    singleHopOverheadAfterRefunds:
      f.permit2_single_hop -
      granted(f.permit2_single_hop_refund, f.permit2_single_hop, f.permit2_single_hop_calldata) -
      routerSingleHopNet,
  };
  return {
    figures: f,
    overhead,
    grantedRefund,
    overheadAfterRefund: overhead - grantedRefund,
    target: OVERHEAD_TARGET,
    verdict: verdict(overhead),
    v3Overhead,
    v3Verdict: verdict(v3Overhead),
    algebraOverhead,
    algebraVerdict: verdict(algebraOverhead),
    v4Overhead,
    v4Verdict: verdict(v4Overhead),
    permit2,
  };
}

const gas = (n) => n.toLocaleString('en-US');

function printTable(s) {
  const f = s.figures;
  const rows = [
    ['direct pair swap (getReserves + transfer + swap)', f.direct_single_hop],
    ['RouterV2 single hop (executeSwaps, 1 pool, no fee)', f.router_single_hop],
    ['overhead (V2)', s.overhead, `target <= ${gas(s.target)} gas   ${s.verdict}`],
    [
      'overhead after the router refund',
      s.overheadAfterRefund,
      `info: refund ${gas(s.grantedRefund)} granted of ${gas(f.router_single_hop_refund)} earned`,
    ],
    null,
    ['direct Uniswap V3 pool swap (swap + pay in the callback)', f.direct_v3_single_hop],
    ['RouterV2 single hop on that V3 pool', f.router_v3_single_hop],
    ['overhead (V3)', s.v3Overhead, `target <= ${gas(s.target)} gas   ${s.v3Verdict}`],
    ['direct Algebra Integral pool swap (swap + pay in the callback)', f.direct_algebra_single_hop],
    ['RouterV2 single hop on that Algebra pool', f.router_algebra_single_hop],
    ['overhead (Algebra)', s.algebraOverhead, `target <= ${gas(s.target)} gas   ${s.algebraVerdict}`],
    ['direct Uniswap V4 swap (unlock, swap, sync + transfer + settle, take)', f.direct_v4_single_hop],
    ['RouterV2 single hop on that V4 pool', f.router_v4_single_hop],
    ['overhead (V4)', s.v4Overhead, `target <= ${gas(s.target)} gas   ${s.v4Verdict}`],
    null,
    ['reference: split across 2 pools', f.router_split_2way],
    ['reference: 2 hops', f.router_two_hops],
    ['reference: 3 hops', f.router_three_hops],
    ['reference: split across 2 paths (A->B, A->C->B)', f.router_split_paths],
    ['reference: diamond (A->B->USDC, A->C->USDC)', f.router_diamond],
    ['reference: native in (wrap)', f.router_native_in],
    ['reference: native out (unwrap)', f.router_native_out],
    ['reference: split across V3, Algebra and V2 (2:2:1)', f.router_split_v3_algebra_v2],
    ['reference: 2 hops, V3 then Algebra', f.router_two_hops_v3_algebra],
    ['reference: split across 2 V4 pools (one unlock)', f.router_v4_split_2way],
    ['reference: split across a V4 and a V3 pool', f.router_v4_v3_split],
    ['reference: native in, native V4 pool', f.router_v4_native_in],
    ['reference: native out, native V4 pool', f.router_v4_native_out],
    ['reference: single-hop calldata (not in the figures)', f.router_single_hop_calldata],
    null,
    [
      'RouterV2Permit2 single hop (executeSwapsWithPermit2, new nonce word)',
      f.permit2_single_hop,
      `executeSwaps + ${gas(s.permit2.singleHopOverhead)}`,
    ],
    [
      'RouterV2Permit2 single hop, nonce word used before',
      f.permit2_single_hop_used_word,
      `executeSwaps + ${gas(s.permit2.singleHopUsedWordOverhead)}`,
    ],
    ['RouterV2Permit2 2 hops (new nonce word)', f.permit2_two_hops, `executeSwaps + ${gas(s.permit2.twoHopsOverhead)}`],
    [
      'RouterV2Permit2 single hop overhead after refunds',
      s.permit2.singleHopOverheadAfterRefunds,
      `info: refund ${gas(f.permit2_single_hop_refund)} earned (RouterV2Permit2 holds the input during the call)`,
    ],
    [
      'RouterV2Permit2 single-hop calldata (not in the figures)',
      f.permit2_single_hop_calldata,
      `executeSwaps + ${gas(s.permit2.calldataOverhead)}`,
    ],
  ];
  const width = Math.max(...rows.filter(Boolean).map(([label]) => label.length));
  console.log('RouterV2 gas bench: execution gas from a cold start, before end-of-transaction refunds\n');
  for (const row of rows) {
    if (!row) {
      console.log('');
      continue;
    }
    const [label, value, note] = row;
    console.log(`  ${label.padEnd(width)}  ${gas(value).padStart(9)}${note ? `   ${note}` : ''}`);
  }
}

const summary = summarize(readFigures(runBench()));
if (process.argv.includes('--json')) console.log(JSON.stringify(summary, null, 2));
else printTable(summary);
