// What a tool may use, as an interface each face implements (docs/agents.md): the deliveries to read, who signs,
// where the app and the receiver are, the workflows, the audit's signer, the contract check, and the decisions a
// person makes (workspace trust, consent to reach a host, a billed start). Core never asks a person itself.
import type { TargetTls } from '../http/targetTls';
import type { CaRemedy } from '../http/tlsFailure';
import type { ProbeReport } from '../probe/probeTypes';
import type { AuditIssuer } from '../sandbox/sandboxControlClient';
import type { Clock } from '../time/clock';
import type { DeliveryRecord } from '../webhooks/deliveryRecord';
import type { ReplayAnswer } from '../webhooks/replayLog';
import type { BilledStartOutcome } from '../workflows/billedStart';
import type { StartRequest } from '../workflows/WorkflowClient';
import type { Product, Workflow, WorkflowEnvelope } from '../workflows/workflowTypes';

/** A receiver's deliveries: its history in this process, or its history file read by another. */
export interface DeliverySource {
  /** Every record held, oldest first (a file source reads what was appended since the last call first). */
  records(): Promise<readonly DeliveryRecord[]>;
  /** The body bytes kept for a record (all of them, or a refused request's prefix); undefined once it is gone. */
  body(id: string): Promise<Buffer | undefined>;
  /** The apps' answers to replays sent from here (bounded), oldest first: appAcknowledged reads them. */
  replays(): readonly ReplayAnswer[];
  /** Keeps what an app answered to a replay (a replay goes to the app directly: no delivery records it). */
  replayed(answer: ReplayAnswer): void;
  /** Calls `listener` when new deliveries may be there; returns its removal. */
  onChange(listener: () => void): () => void;
  /** Where the deliveries come from, in words. */
  readonly description: string;
}

/** The TLS a send to one URL takes (the user's forward rule for it: forwardTargetTls), and where the user gives a root
 * for it, for the words of a TLS failure. */
export interface TargetTlsChoice {
  tls?: TargetTls;
  caRemedy: CaRemedy;
}

/** Who signs what the tools send (the sandbox's key): what the app must trust. Never the key. */
export interface SignerInfo {
  issuer: string;
  /** The audience its tokens carry: the app must expect it. */
  audience: string;
  jwksUrl: string;
}

/** A token for exactly these bytes (a fresh exp, body_sha256 over them); `done()` once the answer came. */
export interface SignedForTarget {
  token: string;
  done(): void;
}

export interface AssistantEnvironment {
  /** "Sandbox", "Staging", or in the CLI the service's origin. */
  name: string;
  baseUrl: string;
  /** The simulator on this machine, where nothing is billed. */
  isSandbox: boolean;
  /** When it is not the Sandbox: why, and how to make the Sandbox the environment here (said in refusals). */
  toSandbox?: string;
}

/** The workflow calls a tool makes, signed in as the user. */
export interface AssistantWorkflows {
  find(correlationId: string): Promise<Workflow[]>;
  read(workflowId: string): Promise<WorkflowEnvelope>;
  /** One start through the core's billed start (startBilledWorkflow): started, not sent, or outcome unknown. */
  start(
    req: StartRequest & { correlationId: string },
    stop?: AbortSignal,
  ): Promise<BilledStartOutcome<{ workflow: Workflow }>>;
}

/** What a person confirms before a billed start: the environment and product, by name. */
export interface BilledStartDetails {
  environment: string;
  serviceOrigin: string;
  sessionId: string;
  product: Product;
  correlationId: string;
}

/** Who signs the audit's tokens (a sandbox through its control API, or another issuer), and what a face does with
 * each request before it is sent (its own receiver trusts them once); `done()` when the audit is over. */
export interface AuditSetup {
  signer: { sandboxUrl: string; sandboxSecret: string } | { issuer: AuditIssuer };
  beforeSend?: (authorization: string | undefined) => void;
  done(): void;
}

/**
 * Each method that cannot give what is asked throws a ToolRefused saying why and what to do (the command or setting
 * of this face), or a ServiceError (whose advice says the same).
 */
export interface AssistantContext {
  clock: Clock;
  deliveries: DeliverySource;
  environment(): AssistantEnvironment;
  /** Throws while nothing may be sent from here (VS Code: an untrusted workspace). */
  checkSending(): void;
  /** Throws unless deliveries may go to this URL: this machine, or a host the user allowed. */
  checkReach(url: string): void;
  /** The user's app for a delivery with these signed fields: their forward target. */
  appTarget(signed: { topic?: string; subTopic?: string }): string;
  /** The TLS of the user's own forward rule for this URL (its `ca` or `insecure`), from the rules in use only. */
  targetTls(url: string): TargetTlsChoice;
  /** The receiver's delivery address, on this machine. */
  receiverUrl(): string;
  /** Who signs replays and events. */
  signer(): Promise<SignerInfo>;
  /** A token for `body`, to be sent to `url`. Sent to this face's own receiver, the receiver accepts that one token
   * whatever environment it trusts now (what this machine signs for itself), until `done()`. The token carries the
   * mark of one signed on request (signedHereClaim.ts), so no receiver takes it for the service's own delivery. */
  signFor(url: string, body: Buffer): Promise<SignedForTarget>;
  /** Signed in; anything using the user's token follows workspace trust. */
  workflows(): Promise<AssistantWorkflows>;
  auditSetup(target: string): Promise<AuditSetup>;
  /** The probe-service report of the environment in use (it signs in with the user's credentials). */
  contractCheck(): Promise<ProbeReport>;
  /** A fixture file's text: only a `*.webhook.json` inside the workspace (the CLI: the folder it runs in). */
  readFixture(path: string): Promise<{ file: string; text: string }>;
  /** Asks a person to confirm this billed start; 'cannot-ask' where this face has no way to ask one. */
  confirmBilledStart(details: BilledStartDetails): Promise<boolean | 'cannot-ask'>;
  /** Asks a person to confirm the receiver audit of an address the model named (auditTargetRule.ts's question);
   * 'cannot-ask' where this face has no way to ask one. */
  confirmAuditTarget(url: string): Promise<boolean | 'cannot-ask'>;
  /** Values no result may carry (passwords, tokens, control secrets): each is replaced wherever it appears. */
  secrets(): readonly string[];
}
