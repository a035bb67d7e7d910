// Maps a service response to a typed outcome, following the spec's Errors section: branch on the status first,
// then on the kind of body. 403, 429, 500 and the infrastructure 404 are decided on status alone.
import { classifyBody, problemTypeName, type BodyKind } from './bodyKind';
import type { HttpResponse } from './request';
import { pathNotServedSaid } from './pathNotServed';
import { said, type Said } from '../presentation/said';
import {
  Conflict,
  MalformedRequest,
  NotEntitled,
  NotFound,
  OutcomeUnknown,
  PathNotServed,
  RateLimited,
  ServiceError,
  SessionEmpty,
  Unauthorized,
  UnexpectedResponse,
  ValidationError,
  WriteConflict,
  type ServiceErrorFields,
} from './serviceErrors';

type Operation = 'start' | 'read' | 'reconfirm' | 'sign-in' | 'refresh' | 'test-webhook';

export type Outcome = { ok: true; status: number; json: unknown } | { ok: false; error: ServiceError };

export interface ClassifyContext {
  operation: Operation;
  /** The correlationId sent with a start: every error carries it so a user can search with it. */
  correlationId?: string;
  /** 429s already waited out before this answer, and the time they took: a final 429 says so. */
  backoffs?: number;
  backoffMs?: number;
  /** What the request named (the session of a start, the workflow of a read), so a 404 can say which. */
  subject?: string;
  /** The address the request went to, so a 404 without a problem document can say which base URL to change. */
  url?: string;
}

export function classifyResponse(res: HttpResponse, ctx: ClassifyContext): Outcome {
  const { status } = res;
  if (status >= 200 && status < 300) {
    const body = classifyBody(res);
    if (body.kind === 'none' && res.body.length > 0)
      return fail(
        new UnexpectedResponse(
          'unexpected',
          res.contentType
            ? said('The service answered {0} with a body that is not JSON ({1}).', status, res.contentType)
            : said('The service answered {0} with a body that is not JSON (no content type).', status),
          base(res, ctx),
        ),
      );
    return { ok: true, status, json: body.kind === 'none' ? undefined : bodyJson(body) };
  }
  switch (status) {
    case 400:
      return fail(badRequest(res, ctx));
    case 401:
      return fail(unauthorized(res, ctx));
    case 403:
      return fail(forbidden(res, ctx));
    case 404:
      return fail(notFound(res, ctx));
    case 409:
      return fail(conflict(res, ctx));
    case 429:
      return fail(rateLimited(res, ctx));
    case 413:
      // Not in the spec's tables: the edge's size limit (the sandbox's is 1 MiB). Refused before any processing.
      return fail(
        new UnexpectedResponse(
          'unexpected',
          ctx.operation === 'test-webhook'
            ? said(
                'The service refused the request as too large (413 Payload Too Large); nothing was processed. Send smaller testData.',
              )
            : said(
                'The service refused the request as too large (413 Payload Too Large); nothing was processed. Send a smaller request.',
              ),
          base(res, ctx),
        ),
      );
    default:
      break;
  }
  if (status >= 500) {
    if (ctx.operation === 'start' || ctx.operation === 'reconfirm') {
      const cid = ctx.correlationId ? said('correlationId {0}', ctx.correlationId) : said('the correlationId you sent');
      return fail(
        new OutcomeUnknown(
          'outcome-unknown',
          said(
            'Outcome unknown ({0}): a workflow may have been started and billed. Do not retry blindly; search Find Workflows by {1} and start another only if none is found.',
            status,
            cid,
          ),
          { ...base(res, ctx), billed: 'possibly' },
        ),
      );
    }
    return fail(
      new ServiceError(
        'server-error',
        said('The service failed ({0}). Try again later; quote the request id to support if it persists.', status),
        base(res, ctx),
      ),
    );
  }
  return fail(
    new UnexpectedResponse(
      'unexpected',
      said('The service answered with an unexpected status {0}.', status),
      base(res, ctx),
    ),
  );
}

function fail(error: ServiceError): Outcome {
  return { ok: false, error };
}

function bodyJson(body: BodyKind): unknown {
  if (body.kind === 'messages') return body.json;
  if (body.kind === 'problem') return body.problem;
  if (body.kind === 'json') return body.json;
  return undefined;
}

function base(res: HttpResponse, ctx: ClassifyContext): ServiceErrorFields {
  return { status: res.status, correlationId: ctx.correlationId };
}

function problemFields(res: HttpResponse, ctx: ClassifyContext, body: BodyKind): ServiceErrorFields {
  if (body.kind === 'problem')
    return {
      ...base(res, ctx),
      problemType: body.problem.type,
      instance: body.problem.instance,
      serverText: body.problem.detail ?? body.problem.title,
    };
  if (body.kind === 'messages')
    return { ...base(res, ctx), code: body.messages[0]?.code, serverText: body.messages[0]?.text };
  return base(res, ctx);
}

function badRequest(res: HttpResponse, ctx: ClassifyContext): ServiceError {
  const body = classifyBody(res);
  const fields = problemFields(res, ctx, body);
  if (body.kind === 'messages')
    return new ValidationError(
      'validation',
      said(
        'The service refused the request ({0}): the product is missing or not permitted, only one of service and model was given, a terms field was sent, or the correlationId is longer than 255 characters. Correct the request; sending it again unchanged returns the same 400.',
        fields.code ?? 'VALIDATION_ERROR',
      ),
      fields,
    );
  if (body.kind === 'problem')
    return new MalformedRequest(
      'malformed-request',
      said(
        'The service could not read the body as a request (malformed JSON, an array instead of an object, or a field of the wrong type). Fix the body.',
      ),
      fields,
    );
  return new UnexpectedResponse('unexpected', said('The service answered 400 without a body we can read.'), fields);
}

function unauthorized(res: HttpResponse, ctx: ClassifyContext): ServiceError {
  const body = classifyBody(res);
  const fields = problemFields(res, ctx, body);
  const tokenRejected =
    body.kind === 'problem'
      ? body.problem.type !== 'about:blank'
      : /invalid_token/.test(res.headers['www-authenticate'] ?? '');
  const why = tokenRejected ? said('the access token was rejected') : said('no credential was sent');
  const advice =
    ctx.operation === 'sign-in'
      ? said('Sign-in was refused: check the username and password (repeated refusals meet the rate throttle).')
      : ctx.operation === 'refresh'
        ? said('The refresh token was refused or has lapsed: sign in again.')
        : said(
            'Not authenticated (401: {0}). Get a fresh token and retry once; if it fails again, sign in again.',
            why,
          );
  return new Unauthorized(advice, fields, tokenRejected, res.headers['www-authenticate']);
}

function forbidden(res: HttpResponse, ctx: ClassifyContext): ServiceError {
  // Spec: branch on status only; the body is opaque (may be empty, HTML or other) and is never parsed.
  const html = res.contentType === 'text/html';
  const advice = html
    ? said(
        'Forbidden (403, HTML page): the service edge refused the request before it reached the service — a missing Content-Type, or a value resembling SQL injection or cross-site scripting (Base64-encode such values). It can also mean the account is not entitled; a fresh token was tried once.',
      )
    : said(
        'Forbidden (403): not permitted in this session, or the account is not entitled to this product (the more common cause); an expired token is also possible, so a fresh token was tried once. Contact your account representative.',
      );
  return new NotEntitled(advice, { ...base(res, ctx), billed: 'no' }, html);
}

function notFound(res: HttpResponse, ctx: ClassifyContext): ServiceError {
  const body = classifyBody(res);
  if (body.kind === 'problem' && /\/problems\/not-found$/.test(body.problem.type.replace(/\/+$/, ''))) {
    return new NotFound('not-found', notFoundSaid(ctx), problemFields(res, ctx, body));
  }
  return new PathNotServed(pathNotServedSaid(ctx.operation, ctx.url), base(res, ctx), ctx.operation, ctx.url);
}

function notFoundSaid(ctx: ClassifyContext): Said {
  const start = ctx.operation === 'start';
  if (ctx.subject === undefined)
    return start
      ? said(
          'No session with this identifier on this environment (404). This is final: retrying will not make it appear.',
        )
      : said(
          'No workflow with this identifier on this environment (404). This is final: retrying will not make it appear.',
        );
  return start
    ? said('No session "{0}" on this environment (404). This is final: retrying will not make it appear.', ctx.subject)
    : said(
        'No workflow "{0}" on this environment (404). This is final: retrying will not make it appear.',
        ctx.subject,
      );
}

function conflict(res: HttpResponse, ctx: ClassifyContext): ServiceError {
  const body = classifyBody(res);
  const fields = problemFields(res, ctx, body);
  if (body.kind === 'messages') {
    if (fields.code === 'SESSION_EMPTY')
      return new SessionEmpty(
        'session-empty',
        said(
          'Nothing is staged in this session (409 SESSION_EMPTY). Stage a loan, then start the workflow again. Nothing was billed.',
        ),
        fields,
      );
    if (fields.code === 'WORKFLOW_WRITE_CONFLICT')
      return new WriteConflict(
        'write-conflict',
        said(
          'A concurrent change won a race (409 WORKFLOW_WRITE_CONFLICT). This attempt is final and was not retried; decide whether to resubmit.',
        ),
        { ...fields, billed: 'unspecified' },
      );
    return new Conflict('conflict', said('Conflict (409 {0}). This attempt is final.', String(fields.code)), {
      ...fields,
      billed: 'unspecified',
    });
  }
  if (body.kind === 'problem') {
    const name = problemTypeName(body.problem.type);
    return new Conflict('conflict', said('Conflict (409 {0}). This attempt is final.', name), {
      ...fields,
      code: name,
      billed: 'unspecified',
    });
  }
  return new Conflict('conflict', said('Conflict (409) without a readable body. This attempt is final.'), {
    ...fields,
    billed: 'unspecified',
  });
}

function rateLimited(res: HttpResponse, ctx: ClassifyContext): RateLimited {
  const fields = { ...base(res, ctx), billed: 'n/a' as const };
  // The throttle answers at the edge, before the service: nothing was started, so nothing was billed.
  const nothing =
    ctx.operation === 'start' ? said('Nothing was started or billed.') : said('The request was not carried out.');
  if (!ctx.backoffs)
    return new RateLimited(
      'rate-limited',
      said(
        'The service is throttling requests from this address (429). Back off and resume; no Retry-After is given. {0}',
        nothing,
      ),
      fields,
    );
  const seconds = Math.round((ctx.backoffMs ?? 0) / 100) / 10;
  const times = ctx.backoffs === 1 ? said('once') : said('{0} times', ctx.backoffs);
  return new RateLimited(
    'rate-limited',
    said(
      'The service kept throttling requests from this address (429): backed off {0} over {1} s and gave up. {2} Try again in a minute; repeated refused sign-ins make the throttle last longer.',
      times,
      seconds,
      nothing,
    ),
    fields,
  );
}
