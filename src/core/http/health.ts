// The health address of the servers the CLI runs (`wfs sandbox`, `wfs listen`): what a container's healthcheck or a
// CI job waits on. It answers 200 only once the server does its work, is never a webhook path, needs no secret, and
// goes through the same Host check as every other request (a DNS-rebinding page learns nothing from it either).

/** GET (or HEAD) here is the health check. */
export const HEALTH_PATH = '/healthz';

/** True for a health request: GET or HEAD of HEALTH_PATH (any query). */
export function isHealthRequest(method: string | undefined, rawUrl: string | undefined): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  const url = rawUrl ?? '';
  const q = url.indexOf('?');
  return (q < 0 ? url : url.slice(0, q)) === HEALTH_PATH;
}

/** The answer: 200 {"status":"ok",…} once `ready`, else 503 {"status":"starting",…} (a stop under way is not ready
 * either). Small, and the same shape for both servers: `service` says which one answered. */
export function healthAnswer(service: 'sandbox' | 'receiver', ready: boolean): { status: number; body: string } {
  return ready
    ? { status: 200, body: JSON.stringify({ status: 'ok', service }) + '\n' }
    : { status: 503, body: JSON.stringify({ status: 'starting', service }) + '\n' };
}
