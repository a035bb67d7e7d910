// The headless Chromium from npm (see tools.mjs) driven by playwright-core: no system browser, no download
// outside the npm registry.
import { chromium } from 'playwright-core';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureChromium } from './tools.mjs';

export async function launchBrowser() {
  const { executablePath, env } = await ensureChromium();
  const profile = mkdtempSync(join(tmpdir(), 'wfs-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    env,
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: [
      '--no-sandbox',
      '--no-zygote',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return context;
}
