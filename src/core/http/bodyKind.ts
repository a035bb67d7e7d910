// The three kinds of body the spec names (Errors): the messages envelope, a problem document, or no usable JSON.
import type { HttpResponse } from './request';

export interface ServiceMessage {
  code: string;
  text?: string;
  timestamp?: string;
}

interface ProblemDocument {
  type: string;
  title?: string;
  status?: number;
  detail?: string;
  instance?: string;
}

export type BodyKind =
  | { kind: 'messages'; messages: ServiceMessage[]; json: Record<string, unknown> }
  | { kind: 'problem'; problem: ProblemDocument }
  | { kind: 'json'; json: unknown }
  | { kind: 'none'; contentType: string; size: number };

/** True for application/json and any +json media type: the only bodies we ever hand to a JSON parser. */
function isJsonMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || /^application\/[\w.+-]+\+json$/.test(mediaType);
}

export function classifyBody(res: Pick<HttpResponse, 'contentType' | 'body'>): BodyKind {
  const none: BodyKind = { kind: 'none', contentType: res.contentType, size: res.body.length };
  if (!isJsonMediaType(res.contentType) || res.body.length === 0) return none;
  let json: unknown;
  try {
    json = JSON.parse(res.body.toString('utf8'));
  } catch {
    return none;
  }
  if (json && typeof json === 'object' && !Array.isArray(json)) {
    const obj = json as Record<string, unknown>;
    // Check that messages exists (and is a list of coded messages) before reading messages[0].code.
    if (
      Array.isArray(obj.messages) &&
      obj.messages.every((m) => m && typeof m === 'object' && typeof (m as ServiceMessage).code === 'string')
    )
      return { kind: 'messages', messages: obj.messages as ServiceMessage[], json: obj };
    if (
      !('messages' in obj) &&
      typeof obj.type === 'string' &&
      (res.contentType === 'application/problem+json' || typeof obj.status === 'number')
    )
      return { kind: 'problem', problem: pickProblem(obj) };
  }
  return { kind: 'json', json };
}

function pickProblem(obj: Record<string, unknown>): ProblemDocument {
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return {
    type: obj.type as string,
    title: str(obj.title),
    status: typeof obj.status === 'number' ? obj.status : undefined,
    detail: str(obj.detail),
    instance: str(obj.instance),
  };
}

/** The last path segment of a problem type URI (spec: 409 problem documents are read that way). */
export function problemTypeName(type: string): string {
  const path = type.split(/[?#]/)[0].replace(/\/+$/, '');
  return path.slice(path.lastIndexOf('/') + 1);
}
