// What every browser test needs: the real server binary on a free port
// with a fresh data folder, and Debian's chromium driven by
// playwright-core. Each test file starts one site in `before` and stops it
// in `after`.
//
//   SERVER_BIN=../target/debug/server CHROMIUM=/usr/bin/chromium node --test

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const SERVER_BIN = path.resolve(HERE, process.env.SERVER_BIN ?? '../target/debug/server');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

// The flags this machine's chromium needs: no sandbox as root, and no
// background connections (the network is closed; they would only fail).
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'];

/**
 * Starts the server (extra command-line `args`) and a browser.
 * @returns {Promise<{ base: string, browser: import('playwright-core').Browser, log(): string, stop(): Promise<void> }>}
 */
export async function startSite({ tag = 'e2e', args = [] } = {}) {
  assert.ok(existsSync(SERVER_BIN), `no server binary at ${SERVER_BIN} (cargo build -p server)`);
  assert.ok(existsSync(CHROMIUM), `no chromium at ${CHROMIUM}`);
  const dataDir = mkdtempSync(path.join(tmpdir(), `bg-e2e-${tag}-`));
  const server = spawn(SERVER_BIN, ['--addr', '127.0.0.1:0', '--data-dir', dataDir, ...args], {
    cwd: ROOT,
    env: { ...process.env, RUST_LOG: process.env.RUST_LOG ?? 'info', NO_COLOR: '1', RUST_LOG_STYLE: 'never' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const base = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not say where it listens within 60 s:\n${log}`)), 60_000);
    const onData = (chunk) => {
      // Strip ANSI colours in case the logger adds them anyway.
      log += chunk.toString().replace(/\x1b\[[0-9;]*m/g, '');
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    server.stderr.on('data', onData);
    server.stdout.on('data', onData);
    server.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`server exited early (${code ?? signal}):\n${log}`));
    });
    server.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  return {
    base,
    browser,
    log: () => log,
    async stop() {
      await browser.close().catch(() => {});
      if (server.exitCode == null) {
        server.kill('SIGTERM');
        await new Promise((r) => {
          const t = setTimeout(() => { server.kill('SIGKILL'); r(); }, 5000);
          server.once('exit', () => { clearTimeout(t); r(); });
        });
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
