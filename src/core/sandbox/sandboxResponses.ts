// Writing the sandbox's answers in exactly the shapes the spec names.
import type { ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { messageTimestamp } from '../time/timestamps';

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: Buffer | string;
}

export function jsonReply(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(value) };
}

/** RFC 9457 problem document with the application/problem+json content type and no messages key. */
export function problemReply(
  status: number,
  type: string,
  title: string,
  detail: string,
  headers: Record<string, string> = {},
): Reply {
  const body = { type, title, status, detail, instance: `urn:uuid:${randomUUID()}` };
  return { status, headers: { 'content-type': 'application/problem+json', ...headers }, body: JSON.stringify(body) };
}

/** The messages envelope with one message. */
export function messagesReply(
  status: number,
  code: string,
  text: string,
  nowMs: number,
  extra: Record<string, unknown> = {},
): Reply {
  return jsonReply(status, { ...extra, messages: [{ code, text, timestamp: messageTimestamp(nowMs) }] });
}

/** What the edge answers before the service is reached: an HTML page, not JSON. */
export function edgeHtmlReply(reason: string): Reply {
  const page = `<!DOCTYPE html>\n<html><head><title>403 Forbidden</title></head><body><h1>Forbidden</h1><p>Request blocked by the edge (${reason}).</p></body></html>\n`;
  return { status: 403, headers: { 'content-type': 'text/html; charset=utf-8' }, body: page };
}

export function emptyReply(status: number, headers: Record<string, string> = {}): Reply {
  return { status, headers };
}

export function send(res: ServerResponse, reply: Reply): void {
  const body =
    reply.body === undefined ? undefined : Buffer.isBuffer(reply.body) ? reply.body : Buffer.from(reply.body, 'utf8');
  res.statusCode = reply.status;
  for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v);
  res.setHeader('content-length', String(body?.length ?? 0));
  res.end(body);
}
