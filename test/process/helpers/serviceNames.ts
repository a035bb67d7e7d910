// Compose service names on one machine: a `--require` hook for the spawned `wfs` processes that resolves the given
// names to 127.0.0.1, as a compose network resolves them to each container. Requests keep the name in their URL and
// Host header, so each server's Host check sees what it would see in a container. Each name resolved is appended to
// a file, so a test can say who reached whom by name.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const HOOK = `
const dns = require('node:dns');
const { appendFileSync } = require('node:fs');
const names = new Set(process.env.WFS_TEST_SERVICE_NAMES.split(','));
const log = process.env.WFS_TEST_RESOLVED_LOG;
const lookup = dns.lookup;
dns.lookup = function (hostname, options, callback) {
  if (!names.has(hostname)) return lookup.apply(this, arguments);
  if (typeof options === 'function') { callback = options; options = {}; }
  if (typeof options === 'number') options = { family: options };
  appendFileSync(log, process.env.WFS_TEST_SERVICE + ' ' + hostname + '\\n');
  if (options && options.all) return process.nextTick(callback, null, [{ address: '127.0.0.1', family: 4 }]);
  process.nextTick(callback, null, '127.0.0.1', 4);
};
`;

export interface ServiceNames {
  /** The environment a service's process gets for the hook; `service` names it in the log. */
  env(service: string): Record<string, string>;
  /** "service name" for each name a service resolved, in order. */
  resolved(): string[];
}

export function serviceNames(names: readonly string[]): ServiceNames {
  const dir = mkdtempSync(join(tmpdir(), 'wfs-names-'));
  const hook = join(dir, 'resolve-service-names.cjs');
  const log = join(dir, 'resolved.log');
  writeFileSync(hook, HOOK);
  writeFileSync(log, '');
  return {
    env: (service) => ({
      NODE_OPTIONS: `--require ${hook}`,
      WFS_TEST_SERVICE_NAMES: names.join(','),
      WFS_TEST_RESOLVED_LOG: log,
      WFS_TEST_SERVICE: service,
    }),
    resolved: () => readFileSync(log, 'utf8').split('\n').filter(Boolean),
  };
}
