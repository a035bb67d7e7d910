// Faults a user (or a test) injects through the control API to rehearse error handling.

export const FAULT_KINDS = [
  /** Next start answers 500 and starts nothing. */
  'start-500',
  /** Next start starts (and bills) a workflow, then answers 500: the "outcome unknown" case. */
  'start-500-billed',
  /** Next start answers 409 WORKFLOW_WRITE_CONFLICT (messages envelope). */
  'start-write-conflict',
  /** Next start answers 409 as a problem document without messages. */
  'start-conflict-problem',
  /** Next authenticated service call answers 403 with an empty body (as for an expired token). */
  'forbidden',
  /** Next request to any service endpoint answers 429 with no body. */
  'throttle',
  /** Next workflow to finish ends failed. */
  'workflow-fails',
  /** Next key-set (JWKS) request answers 503: a receiver must refuse (403), not fail (5xx). */
  'jwks-unavailable',
  /** Next workflow read answers with about 1 MiB more (in the optional "ordered" field, whose shape the spec does not
   * show): a client must not keep all of it. */
  'read-oversized',
] as const;

export type FaultKind = (typeof FAULT_KINDS)[number];

export function isFaultKind(v: unknown): v is FaultKind {
  return typeof v === 'string' && (FAULT_KINDS as readonly string[]).includes(v);
}

export class SandboxFaults {
  private readonly pending = new Map<FaultKind, number>();

  add(kind: FaultKind, count = 1): void {
    this.pending.set(kind, (this.pending.get(kind) ?? 0) + count);
  }

  /** Uses up one injected fault of this kind, if any is pending. */
  take(kind: FaultKind): boolean {
    const n = this.pending.get(kind) ?? 0;
    if (n <= 0) return false;
    if (n === 1) this.pending.delete(kind);
    else this.pending.set(kind, n - 1);
    return true;
  }

  list(): Record<string, number> {
    return Object.fromEntries(this.pending);
  }

  clear(): void {
    this.pending.clear();
  }
}
