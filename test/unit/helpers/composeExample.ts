// docs/compose.yaml as the tests read it: each service's image, command, environment, health check and what it
// waits for (docs/containers.md). The unit tier checks it against the CLI; the process tier runs it.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseYaml, type YamlValue } from './miniYaml';

export const REPO_ROOT = resolve(__dirname, '../../../..');
export const COMPOSE_FILE = 'docs/compose.yaml';

export interface ComposeService {
  name: string;
  image?: string;
  build?: YamlValue;
  /** The arguments after the image's entrypoint (`wfs`). */
  command: string[];
  /** As written: `${VAR:?message}` left for the runner to fill. */
  environment: Record<string, string>;
  /** The healthcheck's test, without its leading "CMD". */
  healthcheck: string[];
  dependsOn: Record<string, string>;
  raw: { [key: string]: YamlValue };
}

function strings(v: YamlValue | undefined, what: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) throw new Error(`${what}: a list of strings`);
  return v as string[];
}

function record(v: YamlValue | undefined, what: string): Record<string, string> {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw new Error(`${what}: a mapping`);
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) {
    if (typeof x === 'string') out[k] = x;
    else if (x && typeof x === 'object' && !Array.isArray(x) && typeof x.condition === 'string') out[k] = x.condition;
    else throw new Error(`${what}.${k}: a string`);
  }
  return out;
}

export function composeServices(text = readFileSync(join(REPO_ROOT, COMPOSE_FILE), 'utf8')): ComposeService[] {
  const doc = parseYaml(text) as { services?: { [name: string]: { [key: string]: YamlValue } } };
  if (!doc?.services) throw new Error(`${COMPOSE_FILE}: no services`);
  return Object.entries(doc.services).map(([name, s]) => {
    const test = strings((s.healthcheck as { test?: YamlValue } | undefined)?.test, `${name}.healthcheck.test`);
    if (test[0] !== 'CMD') throw new Error(`${name}.healthcheck.test: ["CMD", …] (an exec form the tests can run)`);
    return {
      name,
      image: typeof s.image === 'string' ? s.image : undefined,
      build: s.build,
      command: strings(s.command, `${name}.command`),
      environment: record(s.environment, `${name}.environment`),
      healthcheck: test.slice(1),
      dependsOn: record(s.depends_on, `${name}.depends_on`),
      raw: s,
    };
  });
}

/** Fills `${VAR}`, `${VAR:?message}` and `${VAR:-default}` from env, as compose does; an unset required one throws. */
export function interpolate(value: string, env: Record<string, string | undefined>): string {
  return value.replace(/\$\{([A-Z0-9_]+)(?::([?-])([^}]*))?\}/g, (_m, name: string, op?: string, arg?: string) => {
    const v = env[name];
    if (v !== undefined && v !== '') return v;
    if (op === '?') throw new Error(`${name} is required: ${arg}`);
    return op === '-' ? (arg ?? '') : '';
  });
}

/** A service's port: its --port flag, else the port of its health check's URL. */
export function servicePort(s: ComposeService): number {
  const i = s.command.indexOf('--port');
  if (i >= 0) return Number(s.command[i + 1]);
  const url = s.healthcheck.find((a) => /^https?:\/\//.test(a));
  if (!url) throw new Error(`${s.name}: no --port and no health check URL`);
  return Number(new URL(url).port);
}
