// One resolved environment: its name, the origins its service and test webhooks live at, and the issuers its
// deliveries are trusted from. Tokens, the rate gate, pollers and the workflow store key on this value, so an
// environment that now points elsewhere (a restarted sandbox, an edited setting) is simply a different value:
// nothing bound to the old origins is used for the new ones.
// Naming: `env` is always this value; a bare name is `envName`.
import { secretScope } from '../auth/secretScope';
import type { EnvironmentConfig } from './environmentConfig';

export interface Environment extends Readonly<EnvironmentConfig> {
  /** The name and the two origins (secretScope): what its secrets are stored under and what its workflows were
   * read from. Two values with the same key talk to the same service. */
  readonly key: string;
}

export function toEnvironment(config: EnvironmentConfig): Environment {
  return Object.freeze({ ...config, key: secretScope(config) });
}

/** The origin of the environment's service, as a user reads it in a question or a message. */
export function serviceOrigin(env: Pick<Environment, 'baseUrl'>): string {
  return new URL(env.baseUrl).origin;
}

/** The value a caller holds no longer resolves: the environment was edited, or the sandbox restarted or stopped,
 * since the caller read it. What it was about to send was meant for the old value, so nothing is sent. */
export class EnvironmentChanged extends Error {
  constructor(
    readonly env: Environment,
    /** What the name resolves to now; undefined when it resolves to nothing. */
    readonly now: Environment | undefined,
  ) {
    super(`${env.name} changed: ${environmentChange(env, now)}`);
    this.name = 'EnvironmentChanged';
  }
}

/** What changed, as the end of a sentence: "it now points at https://b (it was https://a)". */
export function environmentChange(was: Environment, now: Environment | undefined): string {
  if (!now)
    return was.builtIn ? 'the sandbox has stopped' : `"${was.name}" is no longer in the wfs.environments setting`;
  if (now.key !== was.key)
    return serviceOrigin(now) === serviceOrigin(was)
      ? `its test webhook address now is ${new URL(now.testWebhookUrl).origin} (it was ${new URL(was.testWebhookUrl).origin})`
      : `it now points at ${serviceOrigin(now)} (it was ${serviceOrigin(was)})`;
  return 'its settings were edited';
}

/** Keeps one value per name while nothing about it changes, so values can key maps by identity. */
export class EnvironmentValues {
  private readonly byName = new Map<string, { fingerprint: string; value: Environment }>();

  intern(config: EnvironmentConfig): Environment {
    const fingerprint = JSON.stringify(config);
    const known = this.byName.get(config.name);
    if (known?.fingerprint === fingerprint) return known.value;
    const value = toEnvironment(config);
    this.byName.set(config.name, { fingerprint, value });
    return value;
  }
}
