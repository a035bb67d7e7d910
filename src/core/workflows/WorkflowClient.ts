// Start, read, reconfirm and find workflows (spec: Endpoints 4–6, Errors). Refusals are typed ServiceErrors.
import { authorizedRequest, type AuthorizedCallOptions } from '../http/authorizedRequest';
import { RateGate } from '../http/rateGate';
import type { RequestWire } from '../http/request';
import { WORKFLOW_ROOT, joinUrl, startWorkflowUrl, workflowUrl } from '../http/paths';
import { LocalValidationError, UnexpectedResponse } from '../http/serviceErrors';
import { USER_AGENT } from '../version';
import { said } from '../presentation/said';
import { checkOutgoingValue } from '../http/edgeFilter';
import { checkCorrelationId, generateCorrelationId } from './correlationId';
import { readWorkflowEnvelope, type Product, type Workflow, type WorkflowEnvelope } from './workflowTypes';

export interface WorkflowClientOptions extends AuthorizedCallOptions {
  baseUrl: string;
  userAlias?: string;
  timeoutMs?: number;
  /** Find Workflows' address, with {correlationId} where the value goes. The spec does not show the real
   * endpoint, so this is the one adapter to point elsewhere; by default the sandbox's shape. */
  findWorkflowsUrl?: string;
}

/** The sandbox's Find Workflows: GET …/workflows?correlationId=C answering {workflows: […]}. */
export const DEFAULT_FIND_WORKFLOWS_PATH = `${WORKFLOW_ROOT}/workflows?correlationId={correlationId}`;

/** The Find Workflows address for a correlationId. It must be on the service's own origin: the token goes with it. */
export function findWorkflowsUrl(baseUrl: string, correlationId: string, template?: string): string {
  const t = template ?? joinUrl(baseUrl, DEFAULT_FIND_WORKFLOWS_PATH);
  if (!t.includes('{correlationId}'))
    throw new LocalValidationError(
      'find-url-template',
      said('The Find Workflows address "{0}" has no {1} in it.', t, '{correlationId}'),
    );
  let url: URL;
  try {
    url = new URL(t.replace('{correlationId}', encodeURIComponent(correlationId)));
  } catch {
    throw new LocalValidationError('find-url-template', said('The Find Workflows address "{0}" is not a URL.', t));
  }
  if (url.origin !== new URL(baseUrl).origin)
    throw new LocalValidationError(
      'find-url-origin',
      said(
        "The Find Workflows address {0} is not on the service's origin ({1}); the access token is only sent to the service.",
        url.origin,
        new URL(baseUrl).origin,
      ),
    );
  return url.toString();
}

export interface StartRequest {
  sessionId: string;
  product: Product;
  /** Generated when absent. */
  correlationId?: string;
  /** X-Svc-CorrelationID: support tracing only. */
  supportCorrelationId?: string;
}

export interface StartResult extends WorkflowEnvelope {
  /** The correlationId that was sent (given or generated). */
  correlationId: string;
}

/** A start request that passed every local rule, with its correlationId fixed. */
export interface PreparedStart {
  sessionId: string;
  service: string;
  model: string;
  correlationId: string;
  supportCorrelationId?: string;
}

/** The local rules of a start (spec: Endpoints 4, Errors 403 edge), checked before anything is sent — before a
 * sign-in too, so a request that would be refused costs no credentials on the wire. Throws LocalValidationError. */
export function prepareStart(req: StartRequest, nowMs: number): PreparedStart {
  const correlationId = req.correlationId ?? generateCorrelationId(nowMs);
  const service = req.product.service?.trim();
  const model = req.product.model?.trim();
  if (!req.sessionId) throw new LocalValidationError('session-required', said('A session id is required.'));
  if (!service || !model)
    throw new LocalValidationError('product-required', said('A product needs both service and model.'), {
      correlationId,
    });
  checkCorrelationId(correlationId);
  checkOutgoingValue('sessionId', req.sessionId);
  checkOutgoingValue('product.service', service);
  checkOutgoingValue('product.model', model);
  if (req.supportCorrelationId) checkOutgoingValue('X-Svc-CorrelationID', req.supportCorrelationId);
  return {
    sessionId: req.sessionId,
    service,
    model,
    correlationId,
    ...(req.supportCorrelationId ? { supportCorrelationId: req.supportCorrelationId } : {}),
  };
}

export class WorkflowClient {
  private readonly options: WorkflowClientOptions & { gate: RateGate };

  constructor(options: WorkflowClientOptions) {
    // Every call of this client shares one throttle, unless the caller shares a wider one (with the TokenManager).
    this.options = { ...options, gate: options.gate ?? new RateGate(options.clock, options.backoff, options.random) };
  }

  /** The throttle this client's calls wait on. */
  get gate(): RateGate {
    return this.options.gate;
  }

  /** `signal` aborts the request; once sent, the service may have started the workflow all the same. `wire` is told
   * when the start was handed to the socket (startBilledWorkflow decides by it). */
  async start(req: StartRequest, options: { signal?: AbortSignal; wire?: RequestWire } = {}): Promise<StartResult> {
    const { signal, wire } = options;
    const { sessionId, service, model, correlationId, supportCorrelationId } = prepareStart(
      req,
      this.options.clock.now(),
    );
    const ctx = { operation: 'start' as const, correlationId, subject: sessionId };
    const res = await authorizedRequest(
      {
        method: 'POST',
        url: startWorkflowUrl(this.options.baseUrl, sessionId),
        json: { product: { service, model }, correlationId },
        headers: { ...this.headers(), 'x-svc-correlationid': supportCorrelationId },
        timeoutMs: this.options.timeoutMs,
        signal,
        wire,
      },
      ctx,
      this.options,
    );
    const envelope = readWorkflowEnvelope(res.json);
    if (!envelope)
      throw new UnexpectedResponse(
        'unexpected',
        said('The service accepted the start ({0}) but the body has no workflow.', res.status),
        { status: res.status, correlationId, billed: 'possibly' },
      );
    return { ...envelope, correlationId };
  }

  async read(workflowIdOrUrl: string): Promise<WorkflowEnvelope> {
    return this.workflowCall('GET', workflowIdOrUrl, 'read');
  }

  /** POST to the reconfirm link, whatever reconfirmAvailable says: the service decides. */
  async reconfirm(workflowIdOrUrl: string): Promise<WorkflowEnvelope> {
    return this.workflowCall('POST', workflowIdOrUrl, 'reconfirm');
  }

  private async workflowCall(
    method: 'GET' | 'POST',
    workflowIdOrUrl: string,
    operation: 'read' | 'reconfirm',
  ): Promise<WorkflowEnvelope> {
    const res = await authorizedRequest(
      {
        method,
        url: this.resolveWorkflowUrl(workflowIdOrUrl),
        headers: this.headers(),
        timeoutMs: this.options.timeoutMs,
      },
      { operation, subject: workflowIdOrUrl },
      this.options,
    );
    const envelope = readWorkflowEnvelope(res.json);
    if (!envelope)
      throw new UnexpectedResponse(
        'unexpected',
        operation === 'read'
          ? said('The workflow read ({0}) has no workflow in its body.', res.status)
          : said('The workflow reconfirm ({0}) has no workflow in its body.', res.status),
        { status: res.status },
      );
    return envelope;
  }

  /** Find Workflows by correlationId: the shape is "not shown" in the spec; this follows the sandbox's (an object
   * with a workflows array), at the address findWorkflowsUrl gives. */
  async find(correlationId: string): Promise<Workflow[]> {
    checkOutgoingValue('correlationId', correlationId);
    const url = findWorkflowsUrl(this.options.baseUrl, correlationId, this.options.findWorkflowsUrl);
    const res = await authorizedRequest(
      { method: 'GET', url, headers: this.headers(), timeoutMs: this.options.timeoutMs },
      { operation: 'read', correlationId },
      this.options,
    );
    const list = (res.json as { workflows?: unknown })?.workflows;
    return Array.isArray(list) ? (list as Workflow[]) : [];
  }

  /** A link the service returned, when it is on this environment's origin (where the token may go); otherwise
   * undefined, and the caller uses the workflow id, which gives the spec's same URL on this origin. */
  ownLink(url: string | undefined): string | undefined {
    if (!url) return undefined;
    try {
      return new URL(url).origin === new URL(this.options.baseUrl).origin ? url : undefined;
    } catch {
      return undefined;
    }
  }

  /** A workflow id, or a self/reconfirm link; a link must point at this environment, or our token would leak. */
  resolveWorkflowUrl(idOrUrl: string): string {
    if (!/^https?:\/\//i.test(idOrUrl)) {
      if (!idOrUrl) throw new LocalValidationError('workflow-required', said('A workflow id or link is required.'));
      return workflowUrl(this.options.baseUrl, idOrUrl);
    }
    const url = new URL(idOrUrl);
    const base = new URL(this.options.baseUrl);
    if (url.origin !== base.origin)
      throw new LocalValidationError(
        'foreign-link',
        said(
          "The link {0} is not on this environment ({1}); the access token is only sent to the environment's own address.",
          url.origin,
          base.origin,
        ),
      );
    return url.toString();
  }

  private headers(): Record<string, string | undefined> {
    return {
      'x-svc-useragent': USER_AGENT,
      'x-svc-useralias': this.options.userAlias || undefined,
    };
  }
}
