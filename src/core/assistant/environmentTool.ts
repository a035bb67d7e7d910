// Where everything is: the environment in use, the deliveries read, the receiver, the app, and who signs. The first
// thing an assistant asks when a send or a verification fails; never a password, token or secret.
import { READS, ToolRefused, titled, type AssistantTool } from './assistantTool';
import { said } from '../presentation/said';

/** A value, or why there is none and what to do. */
type Known<T> = { value: T } | { missing: string };

export interface EnvironmentResult {
  /** toSandbox, when it is not the Sandbox: why, and how to use the Sandbox instead. */
  environment: { name: string; baseUrl: string; isSandbox: boolean; billed: boolean; toSandbox?: string };
  deliveries: { source: string; held: number };
  receiverUrl: Known<string>;
  appTarget: Known<string>;
  /** The issuer and key set that sign replays and events: the app must trust them. */
  signer: Known<{ issuer: string; audience: string; jwksUrl: string; trust: string }>;
  /** Whether tools may send from here (VS Code: the workspace is trusted). */
  sending: Known<'allowed'>;
}

async function known<T>(get: () => T | Promise<T>): Promise<Known<T>> {
  try {
    return { value: await get() };
  } catch (err) {
    if (err instanceof ToolRefused) return { missing: err.message };
    throw err;
  }
}

export const describeEnvironment: AssistantTool<Record<string, never>, EnvironmentResult> = {
  name: 'wfs_environment',
  ...titled(said('Show the webhook setup')),
  summary: 'Show the environment, the receiver, your app and the sandbox issuer that signs.',
  description: [
    'Says where everything is: the environment in use (Sandbox or a real, billed one), where the deliveries are read',
    "from and how many there are, the receiver's address, the developer's app (their forward target), the sandbox",
    'issuer and key set that sign replays (the app must trust them), and whether sending is allowed here. Each one',
    'missing says what sets it. Call it first when a replay or a verification fails.',
  ].join(' '),
  inputSchema: { type: 'object', additionalProperties: false, properties: {} },
  annotations: READS,
  effect: 'reads',
  async run(_input, ctx) {
    const env = ctx.environment();
    return {
      environment: { ...env, billed: !env.isSandbox },
      deliveries: { source: ctx.deliveries.description, held: (await ctx.deliveries.records()).length },
      receiverUrl: await known(() => ctx.receiverUrl()),
      appTarget: await known(() => ctx.appTarget({})),
      signer: await known(async () => {
        const s = await ctx.signer();
        // In one line, what an app must trust to accept what the tools send (docs/agents.md).
        const trust = `Your app must trust the issuer ${s.issuer} with the audience ${s.audience} and the key set ${s.jwksUrl}.`;
        return { issuer: s.issuer, audience: s.audience, jwksUrl: s.jwksUrl, trust };
      }),
      sending: await known(() => {
        ctx.checkSending();
        return 'allowed' as const;
      }),
    };
  },
};
