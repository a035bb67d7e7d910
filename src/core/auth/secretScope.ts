// Where a token or a remembered password may be sent is part of its name in the secret store: the environment's
// name and the origins of its service and test-webhook addresses. If a setting (or a hostile workspace) points the
// name at another origin, the stored secret is simply not found there: the user is asked to sign in, and nothing
// issued for one origin is ever sent to another.

export interface SecretBinding {
  name: string;
  baseUrl: string;
  testWebhookUrl: string;
}

export function secretScope(env: SecretBinding): string {
  return `${env.name}@${new URL(env.baseUrl).origin}+${new URL(env.testWebhookUrl).origin}`;
}

/** The SecretStorage key of an environment's remembered password (tokens: TokenManager's secretKeyFor). */
export function passwordKeyFor(scope: string): string {
  return `wfs.password.${scope}`;
}
