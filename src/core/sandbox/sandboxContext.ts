// What the sandbox's route handlers share.
import type { Clock } from '../time/clock';
import type { SandboxProfile } from './sandboxProfile';
import type { RateThrottle } from './rateThrottle';
import type { SandboxFaults } from './sandboxFaults';
import type { SandboxTokens } from './sandboxTokens';
import type { SandboxWorkflows } from './sandboxWorkflows';
import type { WebhookDispatcher } from './webhookDispatcher';
import type { FaultedDeliveries } from './faultedDeliveries';
import type { WebhookSigner } from '../signing/webhookSigner';

export interface SandboxContext {
  clock: Clock;
  baseUrl: string;
  problemsBase: string;
  username: string;
  password: string;
  tokens: SandboxTokens;
  workflows: SandboxWorkflows;
  signer: WebhookSigner;
  dispatcher: WebhookDispatcher;
  faults: SandboxFaults;
  /** Deliveries under the delivery faults in force (duplicate, reorder, delay, retry-storm, burst). */
  deliveries: FaultedDeliveries;
  throttle: RateThrottle;
  /** Registered webhook endpoints that receive workflow events (spec: Events 1). */
  webhookEndpoints: Set<string>;
  /** Whether test-webhook accepts http:// addresses on loopback (the real service requires https). */
  allowLoopbackHttp: boolean;
  /** The per-start secret the control API and /sandbox/sign require (sandboxAccess.ts). */
  controlSecret: string;
  stats: { jwksRequests: number; requests: number };
  /** Told after the signing keys change, when they are kept across restarts (Sandbox's onKeysChanged). */
  keysChanged?: () => Promise<void>;
  /** What a real environment was observed to do where the spec is silent (wfs sandbox --profile). */
  profile?: SandboxProfile;
}
